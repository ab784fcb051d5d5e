import { groupLayouts, groupSpecOutside, LAYOUT } from './group-classes';
import type { Doc } from './policy-set';
import { ATTR, LISTING } from './target-classes';
import type { DimName, Reading, Term } from './term-types';

/*
 * The terms of the rules that count targets together (docs/decisions/0039-groups-of-targets.md):
 * what a perGroup rule reads, and, once every set compared is known, the target rules moved from the
 * one-target classes (`attr:<key>`) to the layouts of several targets (group-classes.ts).
 */

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** The step's shape as a step rule reads it: whether it is targeted (engine/core/targeted-step.ts). */
const SHAPE: readonly DimName[] = ['actionId', 'pct', 'maximum', 'targetType'];

/**
 * What a perGroup rule reads (the listing, the expected count, its `by` key; whether the step is
 * targeted), or why it is beyond the analysis: undefined for every other rule kind.
 */
export function groupRuleReads(kind: string, spec: unknown, reads: Map<DimName, Reading>): string | undefined {
  if (kind !== 'perGroup') return undefined;
  const why = groupSpecOutside(spec);
  if (why !== undefined) return why;
  reads.set(LISTING, 'full');
  reads.set('count', 'full');
  reads.set('actionKind', 'full');
  reads.set(`${ATTR}${String(asObject(spec).by)}`, 'full');
  for (const d of SHAPE) if (!reads.has(d)) reads.set(d, 'presence');
  return undefined;
}

/** Why a perGroup rule may deny a run of several action steps none of whose one-step projections it denies. */
export function groupCoupling(kind: string, spec: unknown): string | undefined {
  if (kind !== 'perGroup' || asObject(spec).per !== 'run') return undefined;
  return "its per: run tallies the targets of all the run's steps together, which no one step shows";
}

const isGroupTerm = (t: Term) => t.label.endsWith('.perGroup');

/**
 * The terms of every set compared (and a property's), as the space of these documents decides them:
 * with an analysed perGroup rule, every term reading targets reads the layouts (LAYOUT) instead of
 * one target's values; when the layouts cannot be made (rules grouping by two keys, too many
 * layouts), the perGroup terms are beyond the analysis, saying why, and the others keep one target.
 */
export function groupedTerms(docs: readonly Doc[], lists: ReadonlyArray<readonly Term[]>): Term[][] {
  const { layouts, why } = groupLayouts(docs);
  const analysed = (t: Term) => t.outside === undefined && isGroupTerm(t);
  if (!lists.some((ts) => ts.some(analysed))) return lists.map((ts) => [...ts]);
  if (layouts === undefined)
    return lists.map((ts) => ts.map((t) => (analysed(t) ? { ...t, outside: why ?? 'perGroup has no layouts' } : t)));
  return lists.map((ts) => ts.map(onLayouts));
}

/** A term reading one target's values, and its rule alone (search.ts decides it too), reading the layouts instead. */
function onLayouts(t: Term): Term {
  const rule = t.rule && onLayouts(t.rule);
  if (![...t.reads.keys()].some((d) => d.startsWith(ATTR))) return rule === t.rule ? t : { ...t, rule };
  const reads = new Map([...t.reads].filter(([d]) => !d.startsWith(ATTR)));
  reads.set(LAYOUT, 'full');
  return { ...t, reads, ...(rule ? { rule } : {}) };
}
