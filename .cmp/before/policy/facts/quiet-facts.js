"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.quietFacts = quietFacts;
exports.givenFacts = givenFacts;
/**
 * What a freshly started service knows before any event, for these needs: the emergency stop is not
 * engaged and no run is known. `eval` and `test` decide with these when no facts are given, and
 * the state source gives them with STATE_UNAVAILABLE=allow. Live signals are not quiet: without an
 * answer (eval --signals, a suite case's signals) their rules cannot decide, as with their sources away.
 */
function quietFacts(needs) {
    if (needs.length === 0)
        return {};
    const state = {};
    for (const need of needs) {
        switch (need.kind) {
            case 'emergency-stop':
                state.emergencyStop = { engaged: false };
                break;
            case 'running':
                state.running = {};
                break;
            case 'ended':
                state.ended = {};
                break;
            case 'started':
                state.started = {};
                break;
            case 'exception-uses':
                state.exceptionUses = {};
                break;
            case 'in-progress':
                state.inProgress = { runs: {}, targets: {}, attributes: {} };
                break;
            case 'alerts':
            case 'prometheus':
                break;
            case 'team-members':
                break; // no members: a scope that needs them cannot decide, as without the Platform API
            case 'environment-names':
                break; // no names: policies match by the values sent and aliases, as without the Platform API
        }
    }
    return { state };
}
/**
 * The facts `eval` and `test` decide on: the state given, else a fresh service's; the signals given,
 * else none; the environment names given, else none (as without the Platform API).
 */
function givenFacts(needs, given) {
    return {
        ...(given.state ? { state: given.state } : quietFacts(needs)),
        ...(given.signals ? { signals: given.signals } : {}),
        ...(given.environments ? { environments: given.environments } : {}),
        ...(given.teams ? { teams: given.teams } : {}),
    };
}
//# sourceMappingURL=quiet-facts.js.map