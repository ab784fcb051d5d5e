"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PAGE_HEADERS = exports.PAGE_DIR = void 0;
exports.readPlaygroundPage = readPlaygroundPage;
exports.pageFileFor = pageFileFor;
const node_fs_1 = require("node:fs");
const node_path_1 = require("node:path");
/** Where `npm run build` puts the page (scripts/build-playground.js): the same from src/ (tests) and dist/. */
exports.PAGE_DIR = (0, node_path_1.join)(__dirname, '..', '..', 'dist', 'playground', 'page');
const FILES = {
    'index.html': 'text/html; charset=utf-8',
    'playground.js': 'text/javascript; charset=utf-8',
    'playground.css': 'text/css; charset=utf-8',
};
/**
 * The headers every page file goes with. The page loads nothing from elsewhere and sends nothing:
 * the CSP says so (`connect-src 'none'`). No `unsafe-eval`: the engine's schemas come compiled
 * (scripts/build-validators.js), nothing is compiled into a function in the page; inline styles are CodeMirror's.
 */
exports.PAGE_HEADERS = {
    'content-security-policy': "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-cache',
};
/**
 * Reads the built page into memory once. Throws naming the fix when it was not built (a checkout
 * without `npm run build`); the npm package and the image ship it.
 */
function readPlaygroundPage(dir = exports.PAGE_DIR) {
    const files = new Map();
    for (const [name, contentType] of Object.entries(FILES)) {
        try {
            files.set(name, { body: (0, node_fs_1.readFileSync)((0, node_path_1.join)(dir, name)), contentType });
        }
        catch (err) {
            throw new Error(`the playground page is not built (${err.message}): run npm run build`);
        }
    }
    return files;
}
/** The page file a request path below the page's base asks for (`''` and `index.html` are the page). */
function pageFileFor(files, rest) {
    return files.get(rest === '' ? 'index.html' : rest);
}
//# sourceMappingURL=playground-page.js.map