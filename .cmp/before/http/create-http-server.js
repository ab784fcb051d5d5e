"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createHttpServer = createHttpServer;
const node_http_1 = require("node:http");
const client_error_json_1 = require("./client-error-json");
/**
 * The node:http server of the service, around `app`. Every answer Node's HTTP layer would make
 * itself is JSON with a `message` here: CONNECT (405) and requests the parser rejects
 * (client-error-json.ts). The app refuses bad framing itself (request-framing.ts: a missing Host,
 * an `Expect` other than 100-continue, a Transfer-Encoding, a declared length over BODY_LIMIT); `100 Continue` is sent by the body reader when it starts reading, so a
 * body refused before it is read (413, 503) never gets one.
 */
function createHttpServer(app, opts = {}) {
    // requireHostHeader: false so that the missing Host gets our JSON answer, not Node's empty 400.
    const server = (0, node_http_1.createServer)({ requireHostHeader: false }, app);
    // The app answers both: an unknown expectation is a framing problem (417), 100-continue is for the body reader.
    const toApp = (req, res) => server.emit('request', req, res);
    server.on('checkContinue', toApp);
    server.on('checkExpectation', toApp);
    server.on('connect', (_req, socket) => {
        (0, client_error_json_1.answerOnSocket)(socket, 405, 'CONNECT is not supported: preflight-gate is not a proxy');
    });
    (0, client_error_json_1.answerClientErrorsAsJson)(server, { headersFor: opts.headersFor });
    return server;
}
//# sourceMappingURL=create-http-server.js.map