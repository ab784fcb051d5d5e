"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.EVENTS_NEED_SECRET = void 0;
exports.eventsRouter = eventsRouter;
const express_1 = require("express");
const validate_payload_1 = require("../payload/validate-payload");
const events_recorder_1 = require("./events-recorder");
const state_event_1 = require("../state/state-event");
const event_tolerance_1 = require("../state/event-tolerance");
const apply_state_event_1 = require("../state/apply-state-event");
const error_handler_1 = require("./error-handler");
const http_error_1 = require("./http-error");
const signed_json_body_1 = require("./signed-json-body");
exports.EVENTS_NEED_SECRET = 'POST /events needs WEBHOOK_SECRET: unsigned events could disengage the emergency stop or end running executions. Set WEBHOOK_SECRET here and the same secret on the Steadybit custom webhook';
function describe(event) {
    if (event.kind === 'killswitch' && event.engaged)
        return `emergency stop engaged by ${event.by} at ${event.changedAt.text}`;
    if (event.kind === 'killswitch')
        return `emergency stop disengaged by ${event.by} at ${event.changedAt.text}${event.endsEngagementAt ? '' : ', naming no engagement'}`;
    const what = event.phase === 'started' ? 'is running' : `ended ${event.endState}`;
    return `execution ${event.id} ${what} (${event.scopes.join(', ') || 'no team or environment'})`;
}
const IGNORED = {
    duplicate: 'ignored: a repeated delivery of an event already received',
    stale: 'ignored: the state it would change is newer (the event is replayed or arrived out of order)',
    unmatched: 'ignored: a disengagement must name the engagement it ends (killswitch.engaged, the time of the engagement in force, not after the disengagement); this one does not, so the emergency stop stays as it is',
};
/**
 * POST /events: Steadybit's custom webhooks (experiment.execution.*, killswitch.*), signed like
 * /preflight. Applied events answer 202, ignored ones 200 (duplicates, replays, out-of-order, too
 * old, untracked), always with a `message`. 503 while the state store is unreachable, so
 * Steadybit's delivery fails visibly.
 */
function eventsRouter(deps) {
    const router = (0, express_1.Router)();
    // Unsigned events could disengage the emergency stop or end running executions: without a
    // secret, /events refuses everything (the preflight still works, with its loud warning).
    const requireSecret = (_req, _res, next) => {
        next(deps.secrets.current().secrets.length > 0 ? undefined : new http_error_1.HttpError(401, exports.EVENTS_NEED_SECRET));
    };
    router.post('/events', (0, events_recorder_1.eventsRecorder)(deps), requireSecret, (0, signed_json_body_1.signedJsonBody)(deps), async (_req, res) => {
        // The answer's record says what the event did, or (for errors) its status.
        const answered = (outcome) => {
            res.locals.eventOutcome = outcome;
        };
        const checked = (0, validate_payload_1.validatePayload)(res.locals.body);
        if (!checked.ok)
            throw new http_error_1.HttpError(400, `invalid webhook payload: ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`, {
                errors: checked.errors,
            });
        const reading = (0, state_event_1.readStateEvent)(checked.payload);
        if (reading.kind === 'invalid')
            throw new http_error_1.HttpError(400, reading.message);
        if (reading.kind === 'ignored') {
            answered('ignored');
            res.status(200).json({ message: reading.message });
            return;
        }
        const { event } = reading;
        const now = deps.clock();
        const tooFar = (0, event_tolerance_1.outsideTolerance)(event, now, deps.state.eventToleranceMs);
        if (tooFar) {
            deps.logger.warn('event ignored', { event: event.name, time: event.time.text, reason: tooFar });
            answered('outside_tolerance');
            res.status(200).json({ message: tooFar });
            return;
        }
        const applied = await (0, apply_state_event_1.applyStateEvent)(deps.state.store, event, now);
        if (applied.kind === 'unavailable')
            throw (0, error_handler_1.eventNotRecordedError)(applied);
        const { outcome } = applied;
        const summary = describe(event);
        if (outcome === 'unmatched')
            deps.logger.warn('event ignored', {
                event: event.name,
                time: event.time.text,
                outcome,
                summary,
                reason: IGNORED.unmatched,
            });
        else
            deps.logger.info('event', { event: event.name, time: event.time.text, outcome, summary });
        answered(outcome === 'applied' ? 'recorded' : outcome);
        if (outcome === 'applied')
            res.status(202).json({ message: `recorded: ${summary}` });
        else
            res.status(200).json({ message: `${IGNORED[outcome]} (${summary})` });
    });
    return router;
}
//# sourceMappingURL=events-route.js.map