import type { Step, Target } from '../../payload/types';
import type { ActionStepRef } from '../core/decision';
import { isTargeted } from '../core/targeted-step';
import { actionSteps } from './action-steps';

/** A target as "the same target" compares it: its type and name (`com.steadybit.extension_host.host/web-1`). */
export const targetId = (t: Target): string | undefined =>
  typeof t.name === 'string' && t.name !== '' ? `${t.type ?? ''}/${t.name}` : undefined;

/** What a run's targets occupy, as the overlap rules compare runs (noOverlap). */
export interface Footprint {
  /** Its targets, by targetId. */
  targets: Set<string>;
  /** The values its targets carry, by attribute key (only the keys asked for). */
  attributes: Map<string, Set<string>>;
  /** Targeted steps that do not list every target they expect: what they touch is not known. */
  unlisted: { ref: ActionStepRef; listed: number; expected?: number }[];
}

/** The targeted steps of a run that do not list every target they expect (no per-target work). */
export const unlistedSteps = (steps: readonly Step[] | undefined): Footprint['unlisted'] =>
  unlistedOf(actionSteps(steps));

/** The same of some of a run's action steps (those a policy is scoped to). */
export function unlistedOf(refs: readonly ActionStepRef[]): Footprint['unlisted'] {
  const out: Footprint['unlisted'] = [];
  for (const ref of refs) {
    if (!isTargeted(ref.step)) continue;
    const listed = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions.length : 0;
    const expected = ref.step.totalTargetCount;
    if ((listed === 0 && expected !== 0) || (typeof expected === 'number' && expected > listed))
      out.push({ ref, listed, expected });
  }
  return out;
}

/**
 * The targets of every targeted action step of a run (nested validations too) and the values of
 * `keys` they carry. The same function reads the run being decided and every run kept in progress,
 * so both sides compare the same strings.
 */
export const runFootprint = (steps: readonly Step[] | undefined, keys: readonly string[]): Footprint =>
  footprintOf(actionSteps(steps), keys);

/** The same of some of a run's action steps: those a policy is scoped to, as a rule reads them. */
export function footprintOf(refs: readonly ActionStepRef[], keys: readonly string[]): Footprint {
  const wanted = new Set(keys);
  const footprint: Footprint = { targets: new Set(), attributes: new Map(), unlisted: unlistedOf(refs) };
  for (const ref of refs) {
    if (!isTargeted(ref.step)) continue;
    const targets = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions : [];
    for (const target of targets) {
      const id = targetId(target);
      if (id !== undefined) footprint.targets.add(id);
      if (wanted.size === 0) continue;
      for (const a of target.attributes ?? []) {
        if (!wanted.has(a.key) || typeof a.value !== 'string') continue;
        let values = footprint.attributes.get(a.key);
        if (values === undefined) footprint.attributes.set(a.key, (values = new Set()));
        values.add(a.value);
      }
    }
  }
  return footprint;
}
