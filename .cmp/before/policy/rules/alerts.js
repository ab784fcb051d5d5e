"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.alertsRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const alerts_check_1 = require("../signals/alerts-check");
const signal_rule_specs_1 = require("../signals/signal-rule-specs");
const signal_run_values_1 = require("./signal-run-values");
const environment_facts_1 = require("../facts/environment-facts");
const placeholder_text_1 = require("../signals/placeholder-text");
/**
 * `- alerts: {matchers: ['severity="critical"', 'namespace="{{environment}}"']}`: no run while
 * Alertmanager has a firing alert that matches (docs/signals.md). The alerts are gathered before
 * the decision (the `alerts` need); the check reads them from the facts.
 */
exports.alertsRule = (0, rule_kind_1.defineRule)({
    key: 'alerts',
    description: 'Deny while Alertmanager has a firing alert matching the matchers (placeholders such as {{environment}} allowed); docs/signals.md.',
    schema: signal_rule_specs_1.ALERTS_SPEC_SCHEMA,
    compile(spec) {
        const compiled = (0, signal_rule_specs_1.compileAlertsSpec)(spec);
        if ('message' in compiled)
            throw new rule_kind_1.RuleSpecError(compiled.message, compiled.path);
        const { check, needs, targetKeys } = compiled;
        const run = ({ ctx }) => {
            const { runs, blind } = (0, signal_run_values_1.signalRunsOf)(ctx, targetKeys, spec.whenMissing);
            // The run's start: a silence that began after it hides no alert from it (docs/decisions/0023-silences-since-the-run.md).
            const since = ctx.payload.execution?.created;
            return (0, signal_run_values_1.withBlind)(blind, (0, alerts_check_1.checkAlerts)(check, ctx.facts.signals, runs, ctx.now, since));
        };
        // {{environment}} is the environment's name: with the Platform API, Steadybit's (gathered first).
        return {
            needs: [spec.matchers].flat().some(placeholder_text_1.fillsEnvironment) ? [...needs, environment_facts_1.ENVIRONMENT_NAMES] : needs,
            check: run,
            ...(check.deadMan ? { deadMan: true } : {}),
        };
    },
});
//# sourceMappingURL=alerts.js.map