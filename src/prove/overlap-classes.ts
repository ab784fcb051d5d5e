import type { Step } from '../payload/types';
import { runFootprint } from '../policy/engine/run-footprint';
import type { InProgressFacts } from '../policy/facts/state-facts';
import type { Doc } from './policy-set';
import { ATTR, LISTING, overlapKeys } from './target-classes';
import type { DimName, Reading } from './term-types';

/*
 * The runs in progress the analysed `noOverlap` rules compare a run with
 * (docs/decisions/0048-runs-in-progress-as-fact-classes.md). Such a rule denies when a step does not
 * list every target it expects, or when a run in progress shares one of the run's targets, or a
 * value of one of its `by` keys that the run's targets carry. More runs in progress never make it
 * allow, and what a set denies is the union of what each shared thing makes it deny, so one run in
 * progress sharing one thing stands for any: nothing, the run's own targets, or the run's values of
 * one key some rule lists in `by` (and not its targets); or the part not loaded (the rule cannot
 * decide). The witness's runs in progress are made from its own payload, as the service looks them
 * up (by the run's targets and values only).
 */

export const IN_PROGRESS: DimName = 'state:inProgress';

/** What the one run in progress of a class shares with the run decided. */
export type OverlapClass =
  | { shares: 'nothing' }
  | { shares: 'targets' }
  | { shares: 'values'; of: string }
  | 'not loaded';

/** The id of the witness's run in progress: one no payload of the analysis sends as its own. */
const IN_PROGRESS_RUN = 'prove-run-in-progress';

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/**
 * What a `noOverlap` rule reads: the runs in progress, whether and how its steps list their targets
 * (the listing, the expected count, the kind that makes a step targeted) and the targets' values of
 * its `by` keys. Undefined for every other rule kind (and for this one: it is analysed).
 */
export function overlapReads(kind: string, spec: unknown, reads: Map<DimName, Reading>): undefined {
  if (kind !== 'noOverlap') return undefined;
  for (const dim of [IN_PROGRESS, LISTING, 'count', 'actionKind']) reads.set(dim, 'full');
  for (const key of overlapKeys(spec)) reads.set(`${ATTR}${key}`, 'full');
  return undefined;
}

/** Every `by` key of the documents' `noOverlap` rules, and whether they have any such rule. */
function overlapRules(docs: readonly Doc[]): { any: boolean; keys: string[] } {
  let any = false;
  const keys = new Set<string>();
  for (const doc of docs)
    for (const rule of Array.isArray(doc.rules) ? doc.rules : [])
      for (const [kind, spec] of Object.entries(asObject(rule)))
        if (kind === 'noOverlap') {
          any = true;
          for (const key of overlapKeys(spec)) keys.add(key);
        }
  return { any, keys: [...keys].sort() };
}

/** The dimension of the runs in progress, when a `noOverlap` rule is among the documents: nothing in progress first. */
export function overlapDims(docs: readonly Doc[]): Array<{ name: DimName; values: OverlapClass[]; complete: true }> {
  const { any, keys } = overlapRules(docs);
  if (!any) return [];
  const values: OverlapClass[] = [
    { shares: 'nothing' },
    { shares: 'targets' },
    ...keys.map((of): OverlapClass => ({ shares: 'values', of })),
    'not loaded',
  ];
  return [{ name: IN_PROGRESS, values, complete: true }];
}

/**
 * The runs in progress of a class, in the shape `eval --state` reads (`inProgress`), for a run of
 * these steps at `now`: undefined when the part is not loaded. The run in progress is listed under
 * each of the run's own targets, or under each value of the key it shares, as the service finds it.
 */
export function inProgressOf(
  cls: OverlapClass,
  steps: readonly Step[] | undefined,
  now: Date,
): InProgressFacts | undefined {
  if (cls === 'not loaded') return undefined;
  const facts: InProgressFacts = { runs: {}, targets: {}, attributes: {} };
  if (cls.shares === 'nothing') return facts;
  const footprint = runFootprint(steps, cls.shares === 'values' ? [cls.of] : []);
  const shared = cls.shares === 'targets' ? [...footprint.targets] : [...(footprint.attributes.get(cls.of) ?? [])];
  if (shared.length === 0) return facts;
  const listed = Object.fromEntries(shared.map((s) => [s, [IN_PROGRESS_RUN]]));
  if (cls.shares === 'targets') facts.targets = listed;
  else facts.attributes[cls.of] = listed;
  facts.runs[IN_PROGRESS_RUN] = { team: 'prove-other-team', since: new Date(now.getTime() - 60_000).toISOString() };
  return facts;
}
