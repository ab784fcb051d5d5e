"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.answerOnSocket = answerOnSocket;
exports.answerClientErrorsAsJson = answerClientErrorsAsJson;
const node_http_1 = require("node:http");
const framing_failure_1 = require("./framing-failure");
const in_flight_1 = require("./in-flight");
const request_framing_1 = require("./request-framing");
/** Node's codes for requests the HTTP parser rejects before Express sees them, and our answers. */
const STATUS = {
    HPE_HEADER_OVERFLOW: { status: 431, message: 'the request headers are too large' },
    ERR_HTTP_REQUEST_TIMEOUT: { status: 408, message: 'the request was not received in time' },
    HPE_INVALID_TRANSFER_ENCODING: {
        status: 501,
        message: 'the Transfer-Encoding is not supported: send the body as is (Content-Length) or chunked, uncompressed',
    },
};
/** A JSON error answer written straight to a socket (there is no response object), then the connection ends. */
function answerOnSocket(socket, status, message, headers = {}) {
    if (!socket.writable) {
        socket.destroy();
        return;
    }
    const body = JSON.stringify({ message });
    const extra = Object.entries(headers)
        .map(([name, value]) => `${name}: ${String(value)}\r\n`)
        .join('');
    socket.end(`HTTP/1.1 ${status} ${node_http_1.STATUS_CODES[status] ?? 'Error'}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}Connection: close\r\n\r\n${body}`);
}
/** The request head in the bytes the parser failed on, when they hold one (method, target, header lines). */
function headOf(err) {
    const text = err.rawPacket?.toString('latin1') ?? '';
    const end = text.indexOf('\r\n\r\n');
    const [requestLine, ...lines] = (end === -1 ? text : text.slice(0, end)).split('\r\n');
    const m = /^([A-Z]+) (\S+) HTTP\/1\.[01]$/.exec(requestLine ?? '');
    return m ? { method: m[1], target: m[2], lines } : undefined;
}
/** Why the parser refused the request, as an answer: the Transfer-Encoding named when it is the cause. */
function answerFor(err, head) {
    if (err.code === 'HPE_INVALID_TRANSFER_ENCODING' && head) {
        const te = head.lines
            .flatMap((l) => (/^transfer-encoding:/i.test(l) ? [l.slice(l.indexOf(':') + 1).trim()] : []))
            .join(', ');
        const problem = te === '' ? undefined : (0, request_framing_1.transferEncodingProblem)(te);
        if (problem)
            return problem;
    }
    return STATUS[err.code ?? ''] ?? { status: 400, message: `malformed HTTP request (${err.code ?? err.message})` };
}
/**
 * Requests the HTTP parser rejects (not HTTP, broken headers, headers too large, a body whose
 * framing breaks) never reach a route in one piece; Node would answer them with an empty body, or
 * (a broken body) not at all. A request whose body breaks while its route reads it is answered by
 * that route (framing-failure.ts): 400, the connection closed. Every other one is answered here like
 * every other error: JSON with a `message`. Requests read before the bad bytes on the same
 * connection (pipelining) get their own answers first: the error is written once those are finished.
 */
function answerClientErrorsAsJson(server, opts = {}) {
    // The responses not finished yet, per connection (in-flight.ts says why not a Set).
    const unanswered = new WeakMap();
    // Before the app's listener: a response it finishes at once must be seen unfinished here first.
    server.prependListener('request', (req, res) => {
        const socket = req.socket;
        let open = unanswered.get(socket);
        if (!open)
            unanswered.set(socket, (open = new in_flight_1.InFlight()));
        const done = open.add(res);
        res.once('close', done);
        res.once('finish', done);
    });
    const whenAnswered = (socket, then) => {
        const next = unanswered.get(socket)?.[Symbol.iterator]().next();
        if (!next || next.done)
            return then();
        const res = next.value;
        const again = () => setImmediate(() => whenAnswered(socket, then));
        res.once('finish', again);
        res.once('close', again);
    };
    /** The request on this socket whose body was being read when the parser failed, if its reader took the error. */
    const failedBodyTaken = (socket, err) => {
        for (const res of unanswered.get(socket) ?? []) {
            if (!res.req.complete)
                return (0, framing_failure_1.failBody)(res.req, (0, framing_failure_1.framingError)(err.code));
        }
        return false;
    };
    const failed = new WeakSet();
    server.on('clientError', (err, socket) => {
        if (err.code === 'ECONNRESET' || !socket.writable) {
            socket.destroy();
            return;
        }
        // The parser stays failed: one answer per connection.
        if (failed.has(socket))
            return;
        failed.add(socket);
        if (failedBodyTaken(socket, err))
            return;
        const head = headOf(err);
        const { status, message } = answerFor(err, head);
        const headers = head && opts.headersFor ? opts.headersFor(head.method, head.target) : {};
        whenAnswered(socket, () => answerOnSocket(socket, status, message, headers));
    });
}
//# sourceMappingURL=client-error-json.js.map