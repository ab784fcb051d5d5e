import type { Checked } from '../core/checked';
import type { SignalRead, Violation } from '../core/decision';
import type { SignalFacts } from '../facts/signal-facts';
import type { SignalNeed } from '../facts/signal-need';
import { checkAlerts } from '../signals/alerts-check';
import type { RunValues } from '../signals/placeholder-text';
import { checkRecovery, compileRecoverySpec, RECOVERY_SPEC_SCHEMA, type RecoverySpec } from '../signals/recovery-check';
import { ALERTS_SPEC_SCHEMA, compileAlertsSpec, type AlertsSpec, type SpecProblem } from '../signals/signal-rule-specs';

/** One signal of a cool-down's `until`: an alert resolved, or a PromQL query back under a threshold (for a while). */
export type UntilSpec =
  | { alerts: Omit<AlertsSpec, 'onUnavailable' | 'whenMissing' | 'deadMan'>; prometheus?: never }
  | { prometheus: RecoverySpec; alerts?: never };

// Not here: what a signal that cannot answer lets through (it is never recovered), and deadMan (a cool-down judges no run in progress).
const { onUnavailable: _o, whenMissing: _w, deadMan: _d, ...alertProperties } = ALERTS_SPEC_SCHEMA.properties;

/** `until:` the signals that say the last run's targets are healthy again; all of them must. */
export const UNTIL_SCHEMA = {
  type: 'array',
  minItems: 1,
  description:
    "The last run's targets are recovered when every signal says so: no matching alert firing, or a PromQL query back under a threshold (for a while). A signal that cannot answer is not recovered.",
  items: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    maxProperties: 1,
    description: 'One signal: alerts or prometheus.',
    properties: {
      alerts: { ...ALERTS_SPEC_SCHEMA, properties: alertProperties },
      prometheus: RECOVERY_SPEC_SCHEMA,
    },
  },
};

/** What a cool-down's `until` found for the last run: every signal that does not show it recovered. */
export type UntilCheck = (
  signals: SignalFacts | undefined,
  runs: readonly RunValues[],
  endedAtMs: number,
  now: Date,
) => Checked;

export interface CompiledUntil {
  check: UntilCheck;
  needs: SignalNeed[];
  /** The target attributes the signals' `{{target.<key>}}` placeholders read. */
  targetKeys: string[];
  /** Whether a signal fills in `{{environment}}`. */
  texts: string[];
}

/** Compiles each signal; the first problem, its path inside `until`. */
export function compileUntil(specs: readonly UntilSpec[]): CompiledUntil | SpecProblem {
  const checks: UntilCheck[] = [];
  const needs: SignalNeed[] = [];
  const targetKeys = new Set<string>();
  const texts: string[] = [];
  for (const [i, spec] of specs.entries()) {
    if (spec.alerts) {
      const compiled = compileAlertsSpec(spec.alerts);
      if ('message' in compiled) return { ...compiled, path: ['until', String(i), 'alerts', ...compiled.path] };
      checks.push((signals, runs, _ended, now) => checkAlerts(compiled.check, signals, runs, now));
      needs.push(...compiled.needs);
      for (const k of compiled.targetKeys) targetKeys.add(k);
      texts.push(...[spec.alerts.matchers].flat());
    } else {
      const compiled = compileRecoverySpec(spec.prometheus);
      if ('message' in compiled) return { ...compiled, path: ['until', String(i), 'prometheus', ...compiled.path] };
      checks.push((signals, runs, ended, now) => checkRecovery(compiled.check, signals, runs, ended, now));
      needs.push(...compiled.needs);
      for (const k of compiled.targetKeys) targetKeys.add(k);
      texts.push(spec.prometheus.query);
    }
  }
  const check: UntilCheck = (signals, runs, ended, now) => {
    const found: Violation[] = [];
    const read: SignalRead[] = [];
    for (const one of checks) {
      const got = one(signals, runs, ended, now);
      found.push(...got.found);
      read.push(...(got.read ?? []));
    }
    return { found, read };
  };
  return { check, needs, targetKeys: [...targetKeys], texts };
}
