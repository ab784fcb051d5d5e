"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.packageVersion = packageVersion;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/** The version in the package.json shipped next to dist/ (the same file in the image and in the npm package). */
function packageVersion() {
    const pkg = JSON.parse((0, node_fs_1.readFileSync)((0, node_path_1.join)(__dirname, '..', '..', 'package.json'), 'utf8'));
    if (typeof pkg.version !== 'string')
        throw new Error('package.json has no version');
    return pkg.version;
}
//# sourceMappingURL=package-version.js.map