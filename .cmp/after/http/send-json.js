"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sendJson = sendJson;
/**
 * Answers with a JSON body, as Express's res.json does (same content type, no ETag). When an
 * answer was already started the connection is cut instead: a half-sent answer must never read
 * as a 2xx.
 */
function sendJson(res, status, body) {
    if (res.headersSent) {
        res.destroy();
        return;
    }
    const text = JSON.stringify(body);
    res.writeHead(status, {
        'Content-Type': 'application/json; charset=utf-8',
        'Content-Length': Buffer.byteLength(text),
    });
    res.end(text);
}
//# sourceMappingURL=send-json.js.map