"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signalFactSource = signalFactSource;
const environment_directory_1 = require("../policy/core/environment-directory");
const environments_1 = require("../policy/engine/environments");
const action_steps_1 = require("../policy/engine/action-steps");
const attacked_values_1 = require("../policy/signals/attacked-values");
const run_values_1 = require("../policy/signals/run-values");
const resolve_signal_needs_1 = require("../policy/signals/resolve-signal-needs");
const SIGNAL_KINDS = ['alerts', 'prometheus', 'json'];
/** Query texts compiled by one source at most (policies x reloads rarely come near it). */
const MAX_MEMO = 1000;
const isSignalNeed = (need) => SIGNAL_KINDS.includes(need.kind);
/**
 * Alertmanager and Prometheus as a fact source (Facts.signals, docs/signals.md): the needs filled
 * for the run (each environment it touches), each distinct one asked once through the gatherer's
 * cache. Always `ok`: a source that cannot answer is an error answer its rules judge (cannot decide,
 * or onUnavailable: allow), so one source away never hides what the others said.
 */
function signalFactSource(gather) {
    const memo = new Map();
    return {
        name: 'signals',
        kinds: SIGNAL_KINDS,
        readsEnvironmentNames: true,
        async gather(needs, payload, now, directory = environment_directory_1.NO_ENVIRONMENT_DIRECTORY, names) {
            if (memo.size > MAX_MEMO)
                memo.clear();
            const environments = (0, environments_1.runEnvironments)(payload.execution, directory, names);
            const values = new Map();
            const steps = (0, action_steps_1.actionSteps)(payload.execution.steps);
            const valuesOf = (key) => values.get(key) ?? values.set(key, (0, attacked_values_1.attackedValues)(steps, key)).get(key);
            const resolved = (0, resolve_signal_needs_1.resolveSignalNeeds)(needs.filter(isSignalNeed), (0, run_values_1.signalRunValues)(payload.execution, environments), memo, valuesOf);
            return { ok: true, facts: { signals: await gather(resolved, now) } };
        },
    };
}
//# sourceMappingURL=signal-fact-source.js.map