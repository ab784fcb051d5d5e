"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.prometheusRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const prometheus_check_1 = require("../signals/prometheus-check");
const signal_rule_specs_1 = require("../signals/signal-rule-specs");
const signal_run_values_1 = require("./signal-run-values");
const environment_facts_1 = require("../facts/environment-facts");
const placeholder_text_1 = require("../signals/placeholder-text");
/**
 * `- prometheus: {query: 'slo:burn_rate:1h{env="{{environment}}"}', denyWhen: "> 14.4"}`: a PromQL
 * instant query read before the decision (the `prometheus` need), judged here (docs/signals.md).
 */
exports.prometheusRule = (0, rule_kind_1.defineRule)({
    key: 'prometheus',
    description: 'Deny when a PromQL instant query (placeholders such as {{environment}} in label values) returns samples, or samples that compare true with denyWhen; docs/signals.md.',
    schema: signal_rule_specs_1.PROMETHEUS_SPEC_SCHEMA,
    compile(spec) {
        const compiled = (0, signal_rule_specs_1.compilePrometheusSpec)(spec);
        if ('message' in compiled)
            throw new rule_kind_1.RuleSpecError(compiled.message, compiled.path);
        const { check, needs, targetKeys } = compiled;
        const run = ({ ctx }) => {
            const { runs, blind } = (0, signal_run_values_1.signalRunsOf)(ctx, targetKeys, spec.whenMissing);
            return (0, signal_run_values_1.withBlind)(blind, (0, prometheus_check_1.checkPrometheus)(check, ctx.facts.signals, runs, ctx.now));
        };
        // {{environment}} is the environment's name: with the Platform API, Steadybit's (gathered first).
        return {
            needs: [spec.query].some(placeholder_text_1.fillsEnvironment) ? [...needs, environment_facts_1.ENVIRONMENT_NAMES] : needs,
            check: run,
            ...(check.deadMan ? { deadMan: true } : {}),
        };
    },
});
//# sourceMappingURL=prometheus.js.map