import type { RuleCheck } from '../core/compiled';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { checkAlerts } from '../signals/alerts-check';
import { ALERTS_SPEC_SCHEMA, compileAlertsSpec, type AlertsSpec } from '../signals/signal-rule-specs';
import { signalRunsOf, withBlind } from './signal-run-values';
import { ENVIRONMENT_NAMES } from '../facts/environment-facts';
import { fillsEnvironment } from '../signals/placeholder-text';

/**
 * `- alerts: {matchers: ['severity="critical"', 'namespace="{{environment}}"']}`: no run while
 * Alertmanager has a firing alert that matches (docs/signals.md). The alerts are gathered before
 * the decision (the `alerts` need); the check reads them from the facts.
 */
export const alertsRule = defineRule<AlertsSpec>({
  key: 'alerts',
  description:
    'Deny while Alertmanager has a firing alert matching the matchers (placeholders such as {{environment}} allowed); docs/signals.md.',
  schema: ALERTS_SPEC_SCHEMA,
  compile(spec) {
    const compiled = compileAlertsSpec(spec);
    if ('message' in compiled) throw new RuleSpecError(compiled.message, compiled.path);
    const { check, needs, targetKeys } = compiled;
    const run: RuleCheck['check'] = ({ ctx }) => {
      const { runs, blind } = signalRunsOf(ctx, targetKeys, spec.whenMissing);
      // The run's start: a silence that began after it hides no alert from it (docs/decisions/0023-silences-since-the-run.md).
      const since = ctx.payload.execution?.created;
      return withBlind(blind, checkAlerts(check, ctx.facts.signals, runs, ctx.now, since));
    };
    // {{environment}} is the environment's name: with the Platform API, Steadybit's (gathered first).
    return {
      needs: [spec.matchers].flat().some(fillsEnvironment) ? [...needs, ENVIRONMENT_NAMES] : needs,
      check: run,
      ...(check.deadMan ? { deadMan: true } : {}),
    };
  },
});
