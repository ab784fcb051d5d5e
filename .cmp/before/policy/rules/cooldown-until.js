"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.UNTIL_SCHEMA = void 0;
exports.compileUntil = compileUntil;
const alerts_check_1 = require("../signals/alerts-check");
const recovery_check_1 = require("../signals/recovery-check");
const signal_rule_specs_1 = require("../signals/signal-rule-specs");
// Not here: what a signal that cannot answer lets through (it is never recovered), and deadMan (a cool-down judges no run in progress).
const { onUnavailable: _o, whenMissing: _w, deadMan: _d, ...alertProperties } = signal_rule_specs_1.ALERTS_SPEC_SCHEMA.properties;
/** `until:` the signals that say the last run's targets are healthy again; all of them must. */
exports.UNTIL_SCHEMA = {
    type: 'array',
    minItems: 1,
    description: "The last run's targets are recovered when every signal says so: no matching alert firing, or a PromQL query back under a threshold (for a while). A signal that cannot answer is not recovered.",
    items: {
        type: 'object',
        additionalProperties: false,
        minProperties: 1,
        maxProperties: 1,
        description: 'One signal: alerts or prometheus.',
        properties: {
            alerts: { ...signal_rule_specs_1.ALERTS_SPEC_SCHEMA, properties: alertProperties },
            prometheus: recovery_check_1.RECOVERY_SPEC_SCHEMA,
        },
    },
};
/** Compiles each signal; the first problem, its path inside `until`. */
function compileUntil(specs) {
    const checks = [];
    const needs = [];
    const targetKeys = new Set();
    const texts = [];
    for (const [i, spec] of specs.entries()) {
        if (spec.alerts) {
            const compiled = (0, signal_rule_specs_1.compileAlertsSpec)(spec.alerts);
            if ('message' in compiled)
                return { ...compiled, path: ['until', String(i), 'alerts', ...compiled.path] };
            checks.push((signals, runs, _ended, now) => (0, alerts_check_1.checkAlerts)(compiled.check, signals, runs, now));
            needs.push(...compiled.needs);
            for (const k of compiled.targetKeys)
                targetKeys.add(k);
            texts.push(...[spec.alerts.matchers].flat());
        }
        else {
            const compiled = (0, recovery_check_1.compileRecoverySpec)(spec.prometheus);
            if ('message' in compiled)
                return { ...compiled, path: ['until', String(i), 'prometheus', ...compiled.path] };
            checks.push((signals, runs, ended, now) => (0, recovery_check_1.checkRecovery)(compiled.check, signals, runs, ended, now));
            needs.push(...compiled.needs);
            for (const k of compiled.targetKeys)
                targetKeys.add(k);
            texts.push(spec.prometheus.query);
        }
    }
    const check = (signals, runs, ended, now) => {
        const found = [];
        const read = [];
        for (const one of checks) {
            const got = one(signals, runs, ended, now);
            found.push(...got.found);
            read.push(...(got.read ?? []));
        }
        return { found, read };
    };
    return { check, needs, targetKeys: [...targetKeys], texts };
}
//# sourceMappingURL=cooldown-until.js.map