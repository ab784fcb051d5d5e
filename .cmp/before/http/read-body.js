"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.refuseBeforeReading = refuseBeforeReading;
exports.readBody = readBody;
const node_stream_1 = require("node:stream");
const framing_failure_1 = require("./framing-failure");
const http_error_1 = require("./http-error");
/** How long what still arrives of a refused body is read off and dropped. */
const DISCARD_MS = 5000;
/**
 * What still arrives of a refused body is read off and dropped while the answer goes out, so the
 * client reads the answer rather than a reset; a sender that has not stopped after DISCARD_MS
 * loses the connection (a chunked body has no end we could wait for).
 */
function discardRest(req) {
    req.resume();
    if (req.complete)
        return;
    const cut = setTimeout(() => req.socket.destroy(), DISCARD_MS);
    cut.unref();
    (0, node_stream_1.finished)(req, () => clearTimeout(cut));
}
/**
 * A body refused before it is read, on a connection its client asked to close: Node would close it
 * as soon as the answer is written, while the client is still sending, and the bytes left unread
 * make the kernel reset it, often before the client has read the answer. So the answer keeps the
 * connection open, the rest is read off and dropped (discardRest), and once both are done the
 * connection ends.
 */
function refuseBeforeReading(req, res) {
    if (!res.shouldKeepAlive && !req.complete) {
        res.shouldKeepAlive = true;
        // Once the answer is out and the rest is read off, in either order.
        let waiting = 2;
        const endOnceBoth = () => {
            waiting -= 1;
            if (waiting === 0)
                req.socket.end();
        };
        (0, node_stream_1.finished)(req, endOnceBoth);
        (0, node_stream_1.finished)(res, endOnceBoth);
    }
    discardRest(req);
}
const tooLarge = (limit) => new http_error_1.HttpError(413, `the body is larger than the limit of ${limit} bytes (BODY_LIMIT)`);
function overBudget(budget, bytes) {
    const size = bytes === undefined ? 'this chunked body' : `this body of ${bytes} bytes`;
    return new http_error_1.HttpError(503, `too many request bodies are being read at once: ${budget.inFlight()} bytes are held and ${size} would pass the budget of ${budget.limit} bytes (BODY_BUDGET); nothing was read, send it again shortly`);
}
/** The declared Content-Length (Node's parser checked its digits), or undefined for a chunked body. */
function declaredLength(req) {
    const value = req.headers['content-length'];
    return value === undefined || req.headers['transfer-encoding'] !== undefined ? undefined : Number(value);
}
/**
 * Reads a request body into memory, within BODY_LIMIT and the body budget. A declared length is
 * held from the budget before a byte is read (503 at once when it does not fit); a chunked body
 * holds what arrives, chunk by chunk (413 past BODY_LIMIT, 503 past the budget, as soon as it
 * passes). The hold is released when the answer is out (the parsed payload lives until then).
 * `100 Continue` is sent only here, once the body is wanted. A body the HTTP parser cannot frame
 * (framing-failure.ts) or that ends early is 400, and its connection is closed.
 */
function readBody(req, res, opts) {
    const declared = declaredLength(req);
    if (declared !== undefined && declared > opts.limit)
        return Promise.reject(tooLarge(opts.limit));
    const held = opts.budget.reserve(declared ?? 0);
    if (!held) {
        refuseBeforeReading(req, res);
        return Promise.reject(overBudget(opts.budget, declared));
    }
    // release() is idempotent, and 'close' is emitted once.
    res.on('close', () => held.release());
    if (req.headers.expect !== undefined && !res.headersSent)
        res.writeContinue();
    return new Promise((resolve, reject) => {
        const whole = declared === undefined ? undefined : Buffer.allocUnsafe(declared);
        const chunks = [];
        let received = 0;
        const stop = (error, then) => {
            cleanup();
            if (then === 'discard')
                discardRest(req);
            else
                res.setHeader('Connection', 'close');
            reject(error);
        };
        const onData = (chunk) => {
            if (received + chunk.length > opts.limit)
                return stop(tooLarge(opts.limit), 'discard');
            if (!whole && !held.grow(chunk.length))
                return stop(overBudget(opts.budget, undefined), 'discard');
            opts.onChunk(chunk);
            if (whole)
                chunk.copy(whole, received);
            else
                chunks.push(chunk);
            received += chunk.length;
        };
        const onEnd = () => {
            cleanup();
            resolve(whole ? whole.subarray(0, received) : Buffer.concat(chunks, received));
        };
        const onAborted = () => stop(new http_error_1.HttpError(400, 'the request ended before its body did (the connection was closed)'), 'close');
        const onClose = () => {
            if (!req.complete)
                onAborted();
        };
        const onError = () => stop(new http_error_1.HttpError(400, 'the request body could not be read'), 'close');
        let unsubscribe = () => undefined;
        function cleanup() {
            unsubscribe();
            req.off('data', onData);
            req.off('end', onEnd);
            req.off('close', onClose);
            req.off('error', onError);
        }
        // `on`, not `once`: cleanup() removes every listener before a settling one returns, and `once`
        // would wrap each in a new closure, every request.
        req.on('data', onData);
        req.on('end', onEnd);
        req.on('close', onClose);
        req.on('error', onError);
        unsubscribe = (0, framing_failure_1.onBodyFailure)(req, (error) => stop(error, 'close'));
    });
}
//# sourceMappingURL=read-body.js.map