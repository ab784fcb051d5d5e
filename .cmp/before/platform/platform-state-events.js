"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RUNNING_STATES = exports.CLOCK_ALLOWANCE_MS = void 0;
exports.killswitchEventFromApi = killswitchEventFromApi;
exports.itemScopes = itemScopes;
exports.executionEventsFromApi = executionEventsFromApi;
const node_crypto_1 = require("node:crypto");
const event_time_1 = require("../state/event-time");
const execution_scopes_1 = require("../state/execution-scopes");
const state_event_1 = require("../state/state-event");
/**
 * How Platform API answers enter the state kept from custom-webhook events (docs/platform-api.md,
 * "Ordering"): as events of their own, through the same store and the same ordering rules.
 *
 * An answer is as of the moment it was read. "Engaged" carries its engagement time (`engaged`), so
 * it orders exactly like the `killswitch.engaged` event it repeats. "Not engaged" is dated the moment
 * the request was sent, less CLOCK_ALLOWANCE_MS for the difference between our clock and
 * Steadybit's: an engagement event dated after that stays in force until the next read confirms it.
 */
exports.CLOCK_ALLOWANCE_MS = 5_000;
/** States whose runs count as running (runs starting count too: the spec does not say which states are terminal). */
exports.RUNNING_STATES = ['CREATED', 'PREPARED', 'RUNNING'];
const hash = (parts) => (0, node_crypto_1.createHash)('sha256').update(JSON.stringify(parts)).digest('hex');
const timeAt = (ms) => (0, event_time_1.parseEventTime)(new Date(ms).toISOString());
/**
 * The kill switch as the platform answered a read sent at `sentAtMs`. A disengagement must name the
 * engagement it ends (killswitch-state.ts): "not engaged" ends `storeEngagedAt`, the engagement the
 * store held when the answer arrived (its `since`), so it cannot end an engagement made after the
 * read, nor one the store learnt meanwhile.
 */
function killswitchEventFromApi(status, sentAtMs, storeEngagedAt) {
    const time = timeAt(sentAtMs);
    const engagedAt = status.engaged === undefined ? undefined : (0, event_time_1.parseEventTime)(status.engaged);
    const changedAt = status.active ? (engagedAt ?? time) : timeAt(sentAtMs - exports.CLOCK_ALLOWANCE_MS);
    const by = status.active
        ? (status.engagedByName ?? status.engagedBy ?? 'an unknown user')
        : 'the Steadybit Platform API';
    const endsEngagementAt = status.active || storeEngagedAt === undefined ? undefined : (0, event_time_1.parseEventTime)(storeEngagedAt);
    return {
        kind: 'killswitch',
        name: `platform-api.killswitch.${status.active ? 'engaged' : 'disengaged'}`,
        time,
        engaged: status.active,
        changedAt,
        by,
        ...(endsEngagementAt ? { endsEngagementAt } : {}),
        dedupeKey: hash(['platform-api', status.active, changedAt.key, endsEngagementAt?.key]),
    };
}
/** The scope keys of a run the search lists: its team, its environment's name and the ids the platform lists under that name. */
function itemScopes(item, idsOf) {
    const keys = new Set();
    if (item.teamKey)
        keys.add((0, execution_scopes_1.scopeKey)('team', item.teamKey));
    if (item.environment) {
        keys.add((0, execution_scopes_1.scopeKey)('environment', item.environment));
        for (const id of idsOf(item.environment))
            keys.add((0, execution_scopes_1.scopeKey)('environment', id));
    }
    return [...keys];
}
const endStateOf = (state) => state_event_1.END_STATES.find((s) => s === state?.toUpperCase());
/**
 * A run of the search as the events Steadybit would have sent: its start (`created`, else
 * `requested` or `started`) and, when it has ended, its end. A run without any start time is left out.
 */
function executionEventsFromApi(item, idsOf) {
    const startText = item.created ?? item.requested ?? item.started;
    const start = startText === undefined ? undefined : (0, event_time_1.parseEventTime)(startText);
    if (!start)
        return [];
    const scopes = itemScopes(item, idsOf);
    const base = { kind: 'execution', id: item.id, scopes };
    const events = [
        {
            ...base,
            name: 'platform-api.execution.started',
            time: start,
            phase: 'started',
            dedupeKey: hash(['platform-api', item.id, 'started']),
        },
    ];
    const end = item.ended === undefined ? undefined : (0, event_time_1.parseEventTime)(item.ended);
    if (end) {
        events.push({
            ...base,
            name: 'platform-api.execution.ended',
            time: end,
            phase: 'ended',
            endState: endStateOf(item.state),
            dedupeKey: hash(['platform-api', item.id, 'ended']),
        });
    }
    return events;
}
//# sourceMappingURL=platform-state-events.js.map