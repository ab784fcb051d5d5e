import type { Attribute, Step, Target } from '../../payload/types';
import type { EvaluationContext } from '../core/evaluation-context';
import { memoKey } from '../core/memo';

/**
 * The values of one attribute key on every listed target of a step, target after target, in the
 * attributes' order: target i's are `values[starts[i]]` up to `values[starts[i + 1]]` (none: the
 * target has no such attribute). Two arrays for the step, not one per target.
 */
export interface AttributeColumn {
  readonly values: readonly string[];
  readonly starts: Int32Array;
}

const NO_ATTRIBUTES: readonly Attribute[] = [];

const COLUMNS = memoKey<Map<Step, Map<string, AttributeColumn>>>("the run's target attribute values, by step and key");

function columnOf(targets: readonly Target[], key: string): AttributeColumn {
  const values: string[] = [];
  const starts = new Int32Array(targets.length + 1);
  for (let i = 0; i < targets.length; i++) {
    for (const a of targets[i].attributes ?? NO_ATTRIBUTES) if (a.key === key) values.push(a.value);
    starts[i + 1] = values.length;
  }
  return { values, starts };
}

/**
 * The values of `key` on each of the step's `targetExecutions`: read once per decision, however
 * many rules (of however many policies, over whichever of the run's steps) ask for that key. A big
 * run lists thousands of targets of 15 attributes each, and each rule that judged an attribute
 * scanned all of them again. Kept in the decision's context, never on the bundle
 * (docs/decisions/0042-target-attributes-once-per-decision.md).
 */
export function attributeColumn(ctx: EvaluationContext, step: Step, key: string): AttributeColumn {
  const bySteps = ctx.memo.get(COLUMNS, () => new Map<Step, Map<string, AttributeColumn>>());
  let byKey = bySteps.get(step);
  if (byKey === undefined) bySteps.set(step, (byKey = new Map()));
  let column = byKey.get(key);
  if (column === undefined) byKey.set(key, (column = columnOf(step.targetExecutions ?? [], key)));
  return column;
}
