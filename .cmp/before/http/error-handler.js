"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.errorBody = void 0;
exports.toHttpError = toHttpError;
exports.eventNotRecordedError = eventNotRecordedError;
exports.factsUnavailableError = factsUnavailableError;
exports.reportError = reportError;
exports.errorHandler = errorHandler;
const http_error_1 = require("./http-error");
/** Maps every error to a status and a JSON `{"message"}`: the ONE place that does so. */
function toHttpError(err) {
    // Body reading errors are HttpErrors already (read-body.ts); anything else is a bug.
    if (err instanceof http_error_1.HttpError)
        return err;
    return new http_error_1.HttpError(500, 'internal error in preflight-gate: no decision could be made, so the run is denied; see the service log');
}
/** The state store could not record an event: 503, so Steadybit delivers it again. */
function eventNotRecordedError(unavailable) {
    return new http_error_1.HttpError(503, `the state store is unavailable (${unavailable.message}); the event was not recorded, deliver it again`);
}
/** A fact source that could not answer (the state store is down): the run is refused, 503, saying why. */
function factsUnavailableError(unavailable) {
    return new http_error_1.HttpError(503, unavailable.message);
}
/**
 * toHttpError, logged: a 503 is a known state (no policy set, state store down), said once per
 * request as a warning; anything else at 500 is a bug, logged with its stack.
 */
function reportError(err, path, logger) {
    const httpError = toHttpError(err);
    if (httpError.status === 503)
        logger.warn('request refused', { path, status: 503, reason: httpError.message });
    else if (httpError.status >= 500)
        logger.error('request failed', { path, error: err instanceof Error ? err.stack : String(err) });
    return httpError;
}
/** The JSON body of an error answer. */
const errorBody = (error) => ({ message: error.message, ...error.details });
exports.errorBody = errorBody;
function errorHandler(logger) {
    return (err, req, res, _next) => {
        const httpError = reportError(err, req.path, logger);
        res.status(httpError.status).json((0, exports.errorBody)(httpError));
    };
}
//# sourceMappingURL=error-handler.js.map