"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.refusedEvent = refusedEvent;
exports.eventsRecorder = eventsRecorder;
const event_outcome_1 = require("../answer/event-outcome");
const observe_answers_1 = require("../observability/observe-answers");
const answer_record_1 = require("../answer/answer-record");
const KNOWN_EVENTS = new Set(event_outcome_1.STEADYBIT_EVENTS);
/** The payload's event name when it is one of Steadybit's, else `other` (also for an unsigned or unparsed body). */
function eventLabel(body) {
    const name = typeof body === 'object' && body !== null && 'event' in body ? body.event : undefined;
    return typeof name === 'string' && KNOWN_EVENTS.has(name) ? name : 'other';
}
/** What an error answer to POST /events says of the event: by its status. */
function outcomeOf(status) {
    if (status === 401)
        return 'unauthorized';
    if (status === 503)
        return 'unavailable';
    if (status >= 400 && status < 500)
        return 'invalid';
    return 'error';
}
/** An answer the route did not classify: an error raised on the way (signature, body, payload, store). */
function outcomeOfStatus(res) {
    if (!res.writableFinished)
        return 'error'; // the client went away before the answer
    return outcomeOf(res.statusCode);
}
/** The record of a POST /events refused for its framing before any route ran (a body over BODY_LIMIT, 413). */
function refusedEvent(status, answeredAt) {
    return (0, answer_record_1.freezeRecord)({
        route: '/events',
        status,
        event: 'other',
        outcome: outcomeOf(status),
        timings: { answeredAt, durationMs: 0 },
    });
}
/**
 * The first handler of POST /events. Once the answer is out it publishes the answer's one record
 * (counted in preflight_events_total{event, outcome} by observe-answers.ts). The route leaves
 * what the event did in `res.locals.eventOutcome`; errors are classified by their status.
 */
function eventsRecorder(deps) {
    return (_req, res, next) => {
        const started = process.hrtime.bigint();
        res.once('close', () => {
            const classified = res.locals.eventOutcome;
            deps.publish((0, answer_record_1.freezeRecord)({
                route: '/events',
                status: res.writableFinished ? res.statusCode : observe_answers_1.CLIENT_CLOSED,
                // The body is only parsed after its signature was verified: an unsigned body never names the event.
                event: eventLabel(res.locals.body),
                outcome: classified ?? outcomeOfStatus(res),
                timings: { answeredAt: deps.clock(), durationMs: Number(process.hrtime.bigint() - started) / 1e6 },
            }));
        });
        next();
    };
}
//# sourceMappingURL=events-recorder.js.map