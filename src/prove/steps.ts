import type { Doc } from './policy-set';
import type { Term } from './terms';

/**
 * Runs of several action steps (docs/decisions/0027-runs-of-several-steps.md). A term's answer on
 * such a run is the OR of its answers on the run's one-step projections (the run with only that
 * action step, every run-level field kept) unless its rule sums over steps or its policy has two
 * exceptions scoped to steps; the answers that rest on such a term are unknown for those runs.
 */

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** Whether an exception's match picks steps (actionIds, actionKinds): it then reaches a violation only on steps it matches. */
const scopedToSteps = (e: Doc) => {
  const match = asObject(e.match);
  return match.actionIds !== undefined || match.actionKinds !== undefined;
};

/** Where a targets rule sums the counts of all steps in scope: `maxTotal`, `perType["x"].maxTotal`. */
function totals(spec: Doc): string[] {
  const out = spec.maxTotal === undefined ? [] : ['maxTotal'];
  for (const [type, caps] of Object.entries(asObject(spec.perType)))
    if (asObject(caps).maxTotal !== undefined) out.push(`perType["${type}"].maxTotal`);
  return out;
}

/**
 * Why a term (one rule of a policy, with the policy's exceptions) may deny a run of several action
 * steps that none of its one-step projections is denied by, or undefined when it cannot: its rule
 * sums the targets of all steps (a total each step stays under), or two of the policy's exceptions
 * are scoped to steps (each may waive every projection, neither the whole run).
 */
export function stepCoupling(kind: string, spec: unknown, exceptions: readonly Doc[]): string | undefined {
  const summed = kind === 'targets' ? totals(asObject(spec)) : [];
  if (summed.length > 0)
    return `its ${summed.join(' and ')} sums the targets of all the run's steps in scope, which no one step shows`;
  const scoped = exceptions.filter(scopedToSteps).map((e) => `"${String(e.name)}"`);
  if (scoped.length > 1)
    return `exceptions ${scoped.join(', ')} each match only some steps (actionIds/actionKinds): one waives only when it matches every violating step, so which waives depends on the run's other steps`;
  return undefined;
}

/**
 * Why an answer that rests on these terms (diff: the changed rules; prove: the property's own) does
 * not cover runs of two or more action steps: one line per coupled term, a rule changed on both
 * sides said once. Other terms need nothing: a term that denies a projection denies the whole run.
 */
export function severalStepsGaps(terms: readonly Term[], prefix = ''): string[] {
  const out: string[] = [];
  for (const t of terms) {
    if (t.outside !== undefined || t.coupled === undefined) continue;
    const line = `runs of two or more action steps where ${prefix}${t.label} decides: ${t.coupled}; only runs of one action step were decided there`;
    if (!out.includes(line)) out.push(line);
  }
  return out;
}
