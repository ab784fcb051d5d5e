/** The helm binary the tests run: extracted from a devDependency by scripts/release/helm-binary.js, which `npm run release:local` uses too. */
export { helmBinary, LAYER_ZIP, unzipEntry } from '../../scripts/release/helm-binary';
