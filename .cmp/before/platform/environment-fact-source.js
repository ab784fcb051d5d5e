"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.environmentFactSource = environmentFactSource;
/**
 * The Platform API's environment names as a fact source (Facts.environments): the names of the
 * run's environment and override, from the directory's cache (a refresh for an id not seen before,
 * waited for at most STEADYBIT_PREFLIGHT_WAIT_MS). Never "unavailable": a name that cannot be known
 * is a fact of its own, and only the policies that depend on the environment cannot decide.
 */
function environmentFactSource(directory) {
    return {
        name: 'Steadybit Platform API',
        kinds: ['environment-names'],
        async gather(_needs, payload) {
            const values = [payload.execution.environment, payload.execution.overrides?.environment].filter((v) => typeof v === 'string' && v !== '');
            const names = await directory.resolve(values);
            const environments = {};
            for (const [value, answer] of names)
                environments[value] = answer.known ? { name: answer.name } : { unknown: answer.reason };
            return { ok: true, facts: { environments } };
        },
    };
}
//# sourceMappingURL=environment-fact-source.js.map