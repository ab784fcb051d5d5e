import type { EvaluationContext } from '../core/evaluation-context';
import type { StateFacts } from '../facts/state-facts';
import type { Violation } from '../core/decision';

/** A part of the state facts gathered for this decision; undefined when it was not (the rule cannot decide). */
export function stateFact<K extends keyof StateFacts>(
  ctx: EvaluationContext,
  key: K,
): NonNullable<StateFacts[K]> | undefined {
  return ctx.facts.state?.[key] as NonNullable<StateFacts[K]> | undefined;
}

export const notLoaded = (what: string): Violation => ({
  reason: `cannot decide: the ${what} state was not loaded`,
  status: 'undecidable',
});

export const iso = (ms: number) => new Date(ms).toISOString();
