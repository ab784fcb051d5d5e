"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PLAYGROUND_HOST = exports.PLAYGROUND_PORT = void 0;
exports.playgroundPort = playgroundPort;
exports.playgroundCommand = playgroundCommand;
const node_http_1 = require("node:http");
const playground_page_1 = require("../../playground/playground-page");
const bad_input_error_1 = require("../../common/bad-input-error");
/** Where `preflight-gate playground` listens unless --port says otherwise (eval --share links point here). */
exports.PLAYGROUND_PORT = 8090;
exports.PLAYGROUND_HOST = '127.0.0.1';
/** The port of --port: 0 (any free port) to 65535. */
function playgroundPort(value) {
    if (value === undefined)
        return exports.PLAYGROUND_PORT;
    const port = Number(value);
    if (!/^\d+$/.test(value) || port > 65535)
        throw new bad_input_error_1.BadInputError(`--port must be a port number (0-65535), got "${value}"`);
    return port;
}
/**
 * `preflight-gate playground [--port N]`: serves the playground page on 127.0.0.1 only (the page
 * decides in the browser; this server only hands out three static files) and prints its URL.
 * Runs until interrupted.
 */
async function playgroundCommand(opts, write) {
    const port = playgroundPort(opts.port);
    const files = (0, playground_page_1.readPlaygroundPage)();
    const server = (0, node_http_1.createServer)((req, res) => {
        const path = new URL(req.url ?? '/', 'http://localhost').pathname;
        const file = req.method === 'GET' || req.method === 'HEAD' ? (0, playground_page_1.pageFileFor)(files, path.slice(1)) : undefined;
        if (!file) {
            res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' }).end('not found: the playground is at /\n');
            return;
        }
        res.writeHead(200, { ...playground_page_1.PAGE_HEADERS, 'content-type': file.contentType, 'content-length': file.body.length });
        res.end(req.method === 'HEAD' ? undefined : file.body);
    });
    await new Promise((resolve, reject) => {
        server.once('error', (err) => reject(new bad_input_error_1.BadInputError(`cannot listen on ${exports.PLAYGROUND_HOST}:${port}: ${err.code ?? err.message} (choose another --port)`)));
        server.listen(port, exports.PLAYGROUND_HOST, resolve);
    });
    const address = server.address();
    const actual = typeof address === 'object' && address ? address.port : port;
    write(`preflight-gate playground: http://${exports.PLAYGROUND_HOST}:${actual}/ (Ctrl-C stops it)\n`);
    return server;
}
//# sourceMappingURL=playground-command.js.map