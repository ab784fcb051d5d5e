import type { EvaluationContext } from '../core/evaluation-context';
import type { ActionStepRef, Violation } from '../core/decision';
import { serviceScopeKey } from '../facts/state-facts';
import { attackedValues } from '../signals/attacked-values';
import type { RunValues } from '../signals/placeholder-text';
import { attributeHint } from '../engine/missing-data';
import { runValuesOf } from './signal-run-values';

/** An attacked service of the run: its scope key, its label, and the run values with `{{target.<by>}}` set to it. */
export interface ServiceScope {
  key: string;
  label: string;
  runs: RunValues[];
}

/**
 * The services the run attacks, by the values of `by` on the targets of `steps` (the action steps
 * the policy is scoped to; `per: service` cool-downs),
 * and what keeps them from being all known: targets without `by`, steps not listing their targets
 * (cannot decide, unless `denyMissing` is false). A run attacking no such service has none.
 */
export function serviceScopesOf(
  ctx: EvaluationContext,
  steps: readonly ActionStepRef[],
  by: string,
  denyMissing: boolean,
): { services: ServiceScope[]; blind: Violation[] } {
  const attacked = attackedValues(steps, by);
  const base = runValuesOf(ctx);
  const services = attacked.values.map((value) => ({
    key: serviceScopeKey(by, value),
    label: `service ${by}=${value}`,
    runs: base.map((run) => ({ ...run, targets: { ...run.targets, [by]: value } })),
  }));
  const blind: Violation[] = [];
  if (denyMissing && attacked.unlisted.length > 0)
    blind.push({
      reason: `cannot decide: ${attacked.unlisted.join(', ')} ${attacked.unlisted.length === 1 ? 'does' : 'do'} not list all targets, so the attacked ${by} values are not all known`,
      status: 'undecidable',
    });
  if (denyMissing && attacked.withoutCount > 0)
    blind.push({
      reason: `cannot decide: ${attacked.withoutCount} target${attacked.withoutCount === 1 ? '' : 's'} of the run carr${attacked.withoutCount === 1 ? 'ies' : 'y'} no ${by} (${attacked.without.join(', ')}), so the services it attacks are not all known; ${attributeHint([by])}`,
      status: 'undecidable',
    });
  return { services, blind };
}
