import type { PreflightPayload } from '../../payload/types';
import type { Facts } from '../facts/facts';
import type { Checked } from './checked';
import type { ActionStepRef, RunEnvironment } from './decision';
import { memoKey, type Memo } from './memo';

/**
 * A shared rule check's answer in this decision, or the error it threw (every policy sharing it then
 * fails closed on the same error), with the check that gave it (RuleCheck.check): an answer is only
 * ever read for that check.
 */
export type RuleAnswer = { check: unknown } & ({ ok: true; checked: Checked } | { ok: false; failure: unknown });

/**
 * One decision's own state: the run as the rules read it, the facts gathered for it, and every memo
 * and answer its policies share (like OPA's per-query caches or json-rules-engine's almanac). Made
 * by decide() for one decision and dropped with it; the compiled bundle is never written to.
 */
export interface EvaluationContext {
  payload: PreflightPayload;
  execution: PreflightPayload['execution'];
  now: Date;
  /** Everything from outside the payload, gathered before the decision. */
  facts: Facts;
  /** The environments the run touches: `execution.environment` and the override, if any. */
  environments: RunEnvironment[];
  actionSteps: ActionStepRef[];
  /** The run's team key and createdVia upper-cased, as scopes compare them: once per decision, not per policy. */
  upperCased: { teamKey?: string; createdVia?: string };
  decisionId: string;
  revision: string;
  /** What the decision's parts share, under keys their modules declare (memo.ts). */
  memo: Memo;
  /**
   * Shared rule checks' answers for the run's whole list of action steps, by the rule's answerSlot
   * (one place per check that rules share, numbered when the bundle is assembled).
   */
  ruleAnswers: Array<RuleAnswer | undefined>;
}

const NOW_TEXT = memoKey<string>('now as ISO text');

/** The decision's time as ISO text, e.g. `2026-01-05T10:00:00.000Z`: once per decision (the decision states it too). */
export function nowText(ctx: EvaluationContext): string {
  return ctx.memo.get(NOW_TEXT, () => ctx.now.toISOString());
}
