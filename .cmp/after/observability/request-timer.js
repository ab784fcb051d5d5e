"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.timeRequest = timeRequest;
/** preflight_request_duration_seconds{route, status} of one request, observed when its answer is finished. */
function timeRequest(metrics, route, res) {
    const end = metrics.requestDuration.startTimer({ route });
    res.once('finish', () => end({ status: String(res.statusCode) }));
}
//# sourceMappingURL=request-timer.js.map