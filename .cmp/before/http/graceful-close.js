"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.gracefulCloser = gracefulCloser;
const node_net_1 = require("node:net");
const in_flight_1 = require("./in-flight");
/**
 * Graceful stop for an HTTP server: stop accepting connections, answer every request that arrives
 * on a connection already open, then resolve. Answers sent while stopping carry
 * `Connection: close`, so each connection ends after its next answer; one that stays idle ends at
 * its keep-alive timeout. After `timeoutMs` the connections still open are cut.
 *
 * Idle keep-alive connections are not dropped at the signal (http.Server#close does that since
 * Node 19): a client may have sent a request on one a moment before, and would see a reset
 * instead of an answer. So the listening socket is closed with net.Server#close,
 * which only stops accepting.
 *
 * Call it right after creating the server: it tracks the responses in flight from then on.
 */
function gracefulCloser(server) {
    const inFlight = new in_flight_1.InFlight();
    let closing = false;
    const closeWhenAnswered = (res) => {
        if (!res.headersSent)
            res.setHeader('Connection', 'close');
    };
    // Before the app's listener, so that an answer the app sends at once already carries the header.
    server.prependListener('request', (_req, res) => {
        res.once('close', inFlight.add(res));
        // A request that arrives on an open keep-alive connection while stopping is still answered.
        if (closing)
            closeWhenAnswered(res);
    });
    return (timeoutMs) => new Promise((resolve) => {
        closing = true;
        for (const res of inFlight)
            closeWhenAnswered(res);
        const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
        force.unref();
        node_net_1.Server.prototype.close.call(server, () => {
            clearTimeout(force);
            resolve();
        });
    });
}
//# sourceMappingURL=graceful-close.js.map