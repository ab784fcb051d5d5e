import type { ActionStepRef } from '../core/decision';
import { stepName } from '../engine/step-text';
import { isTargeted } from '../core/targeted-step';

/**
 * Most distinct values (or combinations of values) one signal rule asks about for one run: a rule
 * with `{{target.k8s.deployment}}` on a run acting on more deployments cannot decide, rather than
 * send hundreds of queries while Steadybit waits (docs/attacked-services.md). A constant, not a
 * setting: a replay must meet the same cap as the decision it replays.
 */
export const MAX_TARGET_VALUES = 20;

/** The values of one attribute across the targets the run acts on, and what keeps them from being complete. */
export interface AttackedValues {
  key: string;
  /** Distinct values, in order of first appearance. */
  values: readonly string[];
  /** Targets that do not carry the attribute (named for messages; at most a few). */
  without: readonly string[];
  withoutCount: number;
  /** Steps listing fewer targets than they expect (`totalTargetCount`), as messages name them. */
  unlisted: readonly string[];
}

const FEW = 3;

/**
 * The distinct values of `key` over the targets of every targeted step of the run (`steps`: its
 * action steps, service validations' actions included): one pass over the targets and their attributes.
 */
export function attackedValues(steps: readonly ActionStepRef[], key: string): AttackedValues {
  const values = new Set<string>();
  const without: string[] = [];
  let withoutCount = 0;
  const unlisted: string[] = [];
  for (const ref of steps) {
    if (!isTargeted(ref.step)) continue;
    const targets = ref.step.targetExecutions ?? [];
    const expected = ref.step.totalTargetCount;
    if ((targets.length === 0 && expected !== 0) || (typeof expected === 'number' && expected > targets.length))
      unlisted.push(stepName(ref));
    targets.forEach((t, i) => {
      let found = false;
      for (const a of t.attributes ?? []) {
        if (a.key !== key) continue;
        found = true;
        if (a.value !== '') values.add(a.value);
      }
      if (found) return;
      withoutCount += 1;
      if (without.length < FEW) without.push(t.name ? `target ${t.name}` : `${ref.path}.targetExecutions[${i}]`);
    });
  }
  return { key, values: [...values], without, withoutCount, unlisted };
}
