"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.framingError = framingError;
exports.failBody = failBody;
exports.onBodyFailure = onBodyFailure;
const http_error_1 = require("./http-error");
/**
 * A request whose body the HTTP parser could not read to its end (a bad chunk size, bare LF line
 * ends, a half-close before the last chunk or before Content-Length bytes). Node reports such an
 * error to the server ('clientError') and nothing to the request, whose body reader would wait
 * forever; this hands the error to the request's body reader, which answers it (400, and the
 * connection closed). Per request: the failure dies with it.
 */
const failures = new WeakMap();
const EVENT = 'preflight-gate:framing-failure';
/** Node's parser codes for a body it could not read, and what the client should fix. */
const WHY = {
    HPE_INVALID_CHUNK_SIZE: 'a chunk size is not a hexadecimal number, or too large',
    HPE_INVALID_EOF_STATE: 'the connection was half-closed before the body ended (fewer bytes than Content-Length, or no last chunk)',
    HPE_STRICT: 'a chunk is not framed as HTTP/1.1 requires (each line must end with CRLF)',
    HPE_LF_EXPECTED: 'a chunk line does not end with CRLF',
    HPE_CR_EXPECTED: 'a chunk line does not end with CRLF',
};
function framingError(code) {
    const why = WHY[code ?? ''] ?? 'the body is not framed as HTTP/1.1 requires';
    return new http_error_1.HttpError(400, `malformed HTTP request body (${code ?? 'unknown'}): ${why}`);
}
/** Tells the request's body reader that its body cannot be read; false when no reader listens yet. */
function failBody(req, error) {
    failures.set(req, error);
    return req.emit(EVENT, error);
}
/** Calls `listener` once if the request's body fails (at once when it already did); returns the unsubscribe. */
function onBodyFailure(req, listener) {
    const failed = failures.get(req);
    if (failed) {
        listener(failed);
        return () => undefined;
    }
    req.once(EVENT, listener);
    return () => req.off(EVENT, listener);
}
//# sourceMappingURL=framing-failure.js.map