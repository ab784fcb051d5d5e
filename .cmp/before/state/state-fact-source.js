"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.overlapKeys = overlapKeys;
exports.stateQuery = stateQuery;
exports.stateFactSource = stateFactSource;
const state_facts_1 = require("../policy/facts/state-facts");
const quiet_facts_1 = require("../policy/facts/quiet-facts");
const execution_scopes_1 = require("./execution-scopes");
const state_store_1 = require("./state-store");
const STATE_KINDS = [
    'emergency-stop',
    'running',
    'ended',
    'started',
    'exception-uses',
    'in-progress',
];
/** The attribute keys the overlap needs ask for, or undefined when no rule asks for runs in progress. */
function overlapKeys(needs) {
    let keys;
    for (const need of needs) {
        if (need.kind !== 'in-progress')
            continue;
        keys ??= [];
        if (need.attribute !== undefined && !keys.includes(need.attribute))
            keys.push(need.attribute);
    }
    return keys;
}
/**
 * The run's scope keys of the kinds asked for: its team, every environment it touches (incl. an
 * override), each service it attacks by the attributes asked for (`services`).
 */
function scopesOf(execution, per, services) {
    const keys = new Set(services.size === 0 ? [] : (0, execution_scopes_1.serviceScopes)(execution, services));
    if (per.has('team') && execution.teamKey)
        keys.add((0, state_facts_1.scopeKey)('team', execution.teamKey));
    if (per.has('environment')) {
        if (execution.environment)
            keys.add((0, state_facts_1.scopeKey)('environment', execution.environment));
        if (execution.overrides?.environment)
            keys.add((0, state_facts_1.scopeKey)('environment', execution.overrides.environment));
    }
    return [...keys];
}
/** The one read a preflight makes for these needs: only as far back as the longest window asks. */
function stateQuery(needs, execution, nowMs) {
    const per = new Set();
    const services = new Set();
    const query = { emergencyStop: false, running: false, scopes: [] };
    for (const need of needs) {
        switch (need.kind) {
            case 'emergency-stop':
                query.emergencyStop = true;
                break;
            case 'running':
                query.running = true;
                per.add(need.per);
                break;
            case 'ended':
                query.endedSinceMs = Math.min(query.endedSinceMs ?? nowMs, nowMs - need.windowMs);
                if (need.per === 'service')
                    services.add(need.attribute);
                else
                    per.add(need.per);
                break;
            case 'started':
                query.startedSinceMs = Math.min(query.startedSinceMs ?? nowMs, nowMs - need.windowMs);
                per.add(need.per);
                break;
            case 'exception-uses':
                (query.exceptionUses ??= []).push(need.exception);
                break;
            case 'in-progress':
                break; // the guard's store answers these (RunsInProgress), not this query
        }
    }
    return { ...query, scopes: scopesOf(execution, per, services) };
}
/**
 * The state store as a fact source (Facts.state): reads only what the bundle's rules need, in one
 * round trip. When the store is unreachable the answer says so (the route refuses the run with
 * 503), or with STATE_UNAVAILABLE=allow an empty state and a warning in the log (unsafe:
 * guardrails with memory are off until the store returns).
 */
function stateFactSource(deps) {
    return {
        name: 'state store',
        kinds: STATE_KINDS,
        async gather(needs, payload, now) {
            const query = stateQuery(needs, payload.execution, now.getTime());
            const keys = overlapKeys(needs);
            try {
                // The runs in progress sharing this run's targets, read next to the state (both or neither).
                const [state, inProgress] = await Promise.all([
                    deps.store.read(query, now),
                    keys && deps.inProgress?.sharing(payload, keys, now.getTime()),
                ]);
                return { ok: true, facts: { state: inProgress ? { ...state, inProgress } : state } };
            }
            catch (err) {
                if (!(err instanceof state_store_1.StateUnavailableError))
                    throw err;
                if (deps.onUnavailable === 'allow') {
                    deps.logger.warn('state store unavailable; STATE_UNAVAILABLE=allow, so guardrails with memory are not applied', { error: err.message });
                    return { ok: true, facts: (0, quiet_facts_1.quietFacts)(needs) };
                }
                const message = `the state store is unavailable (${err.message}), so emergency stop, concurrency, cool-down and quota policies cannot be checked and the run is denied (STATE_UNAVAILABLE=deny)`;
                return { ok: false, unavailable: { source: 'state store', message } };
            }
        },
    };
}
//# sourceMappingURL=state-fact-source.js.map