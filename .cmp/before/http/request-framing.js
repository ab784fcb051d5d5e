"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.transferEncodingProblem = transferEncodingProblem;
exports.framingProblem = framingProblem;
const http_error_1 = require("./http-error");
/**
 * What is wrong with a `Transfer-Encoding` (all its header lines joined with ", "), or undefined.
 * `chunked` more than once, or not last, is malformed framing (400: a proxy and this service could
 * split the body differently); any other coding is one this service does not implement (501).
 */
function transferEncodingProblem(value) {
    const codings = value.split(',').map((c) => c.trim().toLowerCase());
    const chunked = codings.filter((c) => c === 'chunked').length;
    if (chunked > 1) {
        return new http_error_1.HttpError(400, `Transfer-Encoding "${value}" names chunked more than once, which is malformed framing: send chunked once, or Content-Length`);
    }
    if (chunked === 1 && codings[codings.length - 1] !== 'chunked') {
        return new http_error_1.HttpError(400, `Transfer-Encoding "${value}" is malformed framing: chunked must be the last coding`);
    }
    if (codings.some((c) => c !== 'chunked')) {
        return new http_error_1.HttpError(501, `Transfer-Encoding "${value}" is not supported: send the body as is (Content-Length) or chunked, uncompressed`);
    }
    return undefined;
}
/**
 * What is wrong with a request's framing, before any route runs, or undefined. Node's HTTP layer
 * would answer some of these itself with an empty body (a missing Host: 400), let others through
 * (`Transfer-Encoding: gzip, chunked` hands the route compressed bytes), or read a body it will
 * refuse to the last byte (a declared length over the limit). Each becomes a JSON answer here.
 */
function framingProblem(req, bodyLimitBytes) {
    if (req.httpVersionMajor === 1 && req.httpVersionMinor === 1 && req.headers.host === undefined) {
        return new http_error_1.HttpError(400, 'the request has no Host header, which HTTP/1.1 requires');
    }
    const expect = req.headers.expect;
    if (expect !== undefined && expect.trim().toLowerCase() !== '100-continue') {
        return new http_error_1.HttpError(417, `Expect: ${expect} is not supported; the only expectation understood is 100-continue`);
    }
    const te = req.headers['transfer-encoding'];
    const teProblem = te === undefined ? undefined : transferEncodingProblem(te);
    if (teProblem)
        return teProblem;
    const declared = req.headers['content-length'];
    if (declared !== undefined && Number(declared) > bodyLimitBytes) {
        return new http_error_1.HttpError(413, `the body is larger than the limit of ${bodyLimitBytes} bytes (BODY_LIMIT)`);
    }
    return undefined;
}
//# sourceMappingURL=request-framing.js.map