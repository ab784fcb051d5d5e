"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TRACKED_EVENTS = exports.END_STATES = void 0;
exports.readStateEvent = readStateEvent;
const node_crypto_1 = require("node:crypto");
const event_time_1 = require("./event-time");
const execution_scopes_1 = require("./execution-scopes");
var state_facts_1 = require("../policy/facts/state-facts");
Object.defineProperty(exports, "END_STATES", { enumerable: true, get: function () { return state_facts_1.END_STATES; } });
const END_EVENTS = {
    'experiment.execution.completed': 'COMPLETED',
    'experiment.execution.failed': 'FAILED',
    'experiment.execution.errored': 'ERRORED',
    'experiment.execution.canceled': 'CANCELED',
};
const START_EVENT = 'experiment.execution.created';
/** The custom-webhook events that change the tracked state: what `connect` subscribes /events to. */
exports.TRACKED_EVENTS = [
    START_EVENT,
    ...Object.keys(END_EVENTS),
    'killswitch.engaged',
    'killswitch.disengaged',
];
const hash = (parts) => (0, node_crypto_1.createHash)('sha256').update(JSON.stringify(parts)).digest('hex');
const userName = (id, details) => details?.name ?? details?.username ?? id ?? 'an unknown user';
function optionalTime(text, field) {
    if (text === undefined)
        return undefined;
    return (0, event_time_1.parseEventTime)(text) ?? `${field} is not an RFC 3339 time: "${text}"`;
}
function killswitchEvent(payload, time, ks) {
    const engaged = payload.event === 'killswitch.engaged';
    const changed = optionalTime(engaged ? ks.engaged : ks.disengaged, `killswitch.${engaged ? 'engaged' : 'disengaged'}`);
    const endsAt = engaged ? undefined : optionalTime(ks.engaged, 'killswitch.engaged');
    if (typeof changed === 'string')
        return { kind: 'invalid', message: changed };
    if (typeof endsAt === 'string')
        return { kind: 'invalid', message: endsAt };
    const by = engaged ? userName(ks.engagedBy, ks.engagedByDetails) : userName(ks.disengagedBy, ks.disengagedByDetails);
    return {
        kind: 'event',
        event: {
            kind: 'killswitch',
            name: payload.event,
            time,
            engaged,
            changedAt: changed ?? time,
            by,
            endsEngagementAt: endsAt,
            dedupeKey: hash([payload.event, payload.time, ks.engaged, ks.disengaged]),
        },
    };
}
function executionEvent(payload, time, execution) {
    const endState = END_EVENTS[payload.event];
    if (payload.event !== START_EVENT && endState === undefined) {
        return {
            kind: 'ignored',
            message: `ignored: ${payload.event} does not change the tracked state (only created, completed, failed, errored and canceled do)`,
        };
    }
    if (execution.id === undefined)
        return { kind: 'invalid', message: `${payload.event} without execution.id: the execution cannot be tracked` };
    const id = String(execution.id);
    return {
        kind: 'event',
        event: {
            kind: 'execution',
            name: payload.event,
            time,
            id,
            phase: endState ? 'ended' : 'started',
            endState,
            scopes: (0, execution_scopes_1.executionScopes)(execution),
            dedupeKey: hash([payload.event, id, payload.time, execution.state]),
        },
    };
}
/** What a custom webhook means for the state: an event to apply, one to ignore, or bad input. */
function readStateEvent(payload) {
    const isKillswitch = payload.event === 'killswitch.engaged' || payload.event === 'killswitch.disengaged';
    if (!isKillswitch && !payload.event.startsWith('experiment.execution.')) {
        return {
            kind: 'ignored',
            message: `ignored: event "${payload.event}" is not tracked (experiment.execution.* and killswitch.* are)`,
        };
    }
    if (payload.time === undefined)
        return {
            kind: 'invalid',
            message: `${payload.event} without time: the event cannot be ordered or checked for age`,
        };
    const time = (0, event_time_1.parseEventTime)(payload.time);
    if (!time)
        return { kind: 'invalid', message: `time is not an RFC 3339 time: "${payload.time}"` };
    if (isKillswitch) {
        if (!payload.killswitch)
            return { kind: 'invalid', message: `${payload.event} without killswitch details` };
        return killswitchEvent(payload, time, payload.killswitch);
    }
    if (!payload.execution)
        return { kind: 'invalid', message: `${payload.event} without execution` };
    return executionEvent(payload, time, payload.execution);
}
//# sourceMappingURL=state-event.js.map