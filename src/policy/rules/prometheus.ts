import type { RuleCheck } from '../core/compiled';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { checkPrometheus } from '../signals/prometheus-check';
import { compilePrometheusSpec, PROMETHEUS_SPEC_SCHEMA, type PrometheusSpec } from '../signals/signal-rule-specs';
import { signalRunsOf, withBlind } from './signal-run-values';
import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import { fillsEnvironment } from '../signals/placeholder-text';

/**
 * `- prometheus: {query: 'slo:burn_rate:1h{env="{{environment}}"}', denyWhen: "> 14.4"}`: a PromQL
 * instant query read before the decision (the `prometheus` need), judged here (docs/signals.md).
 */
export const prometheusRule = defineRule<PrometheusSpec>({
  key: 'prometheus',
  description:
    'Deny when a PromQL instant query (placeholders such as {{environment}} in label values) returns samples, or samples that compare true with denyWhen; docs/signals.md.',
  schema: PROMETHEUS_SPEC_SCHEMA,
  compile(spec) {
    const compiled = compilePrometheusSpec(spec);
    if ('message' in compiled) throw new RuleSpecError(compiled.message, compiled.path);
    const { check, needs, targetKeys } = compiled;
    const run: RuleCheck['check'] = ({ ctx }) => {
      const { runs, blind } = signalRunsOf(ctx, targetKeys, spec.whenMissing);
      return withBlind(blind, checkPrometheus(check, ctx.facts.signals, runs, ctx.now));
    };
    // {{environment}} is the environment's name: with the Platform API, Steadybit's (gathered first).
    return {
      needs: [spec.query].some(fillsEnvironment) ? [...needs, ENVIRONMENT_NAMES] : needs,
      check: run,
      ...(check.deadMan ? { deadMan: true } : {}),
    };
  },
});
