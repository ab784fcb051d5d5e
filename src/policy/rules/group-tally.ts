import type { Target } from '../../payload/types';
import type { ActionStepRef } from '../core/decision';

/** One group of targets (the targets sharing a value of the `by` attribute) as one step or the run reaches it. */
export interface Group {
  /** The distinct members reached: target names, or values of the `member` attribute. */
  members: Set<string>;
  /** The smallest and largest group size the targets carry (NaN when none carries one). */
  smallest: number;
  largest: number;
  /** Targets of the group listed, and how many of them carry a size. */
  targets: number;
  sized: number;
  /** Targets whose size attribute is present but not a whole count of at least 1: the first, and how many. */
  badSize?: { where: string; value: string };
  badSizes: number;
}

/** What one scope (a step, or the whole run) reaches, by group value, and the targets it cannot place. */
export interface Tally {
  groups: Map<string, Group>;
  /** Targets without the `by` (or `member`) attribute, named for messages. */
  unplaced: string[];
}

export interface TallyKeys {
  by: string;
  member?: string;
  size?: string;
}

/** A target's values of the tally's keys (a key may be sent several times). */
interface TargetValues {
  groups: readonly string[];
  members: readonly string[];
  sizes: readonly string[];
}

const NONE: readonly string[] = Object.freeze([]);

/** `list` and `value`: an array of one is made to measure, where pushing onto `[]` reserves 17 slots. */
const withValue = (list: readonly string[], value: string): readonly string[] =>
  list === NONE ? [value] : [...list, value];

/**
 * One pass over a target's attributes for every key the tally reads: a big run's attributes do not
 * fit in the CPU's cache, so each further pass over them costs as much again.
 */
function valuesOf(t: Target, keys: TallyKeys): TargetValues {
  const values: TargetValues = { groups: NONE, members: NONE, sizes: NONE };
  for (const { key, value } of t.attributes ?? []) {
    if (key === keys.by) values.groups = withValue(values.groups, value);
    if (key === keys.member) values.members = withValue(values.members, value);
    if (key === keys.size) values.sizes = withValue(values.sizes, value);
  }
  return values;
}

/** A size attribute's value as a whole count of at least 1, else undefined (e.g. "3" but not "3.5", "-1" or "n/a"). */
export function sizeValue(text: string): number | undefined {
  if (!/^\s*\d{1,9}\s*$/.test(text)) return undefined;
  const n = Number(text);
  return n >= 1 ? n : undefined;
}

export function emptyTally(): Tally {
  return { groups: new Map(), unplaced: [] };
}

function groupFor(tally: Tally, value: string): Group {
  let g = tally.groups.get(value);
  if (!g)
    tally.groups.set(
      value,
      (g = { members: new Set(), smallest: NaN, largest: NaN, targets: 0, sized: 0, badSizes: 0 }),
    );
  return g;
}

/** A target's size values, read once: the whole counts, and the first value that is not one. */
interface SizesSent {
  valid: readonly number[];
  bad?: string;
}

/** What a target without a size value sends (most targets, and every target when the rule reads no size). */
const NO_SIZES: SizesSent = Object.freeze({ valid: Object.freeze([]) });

function sizesOf(texts: readonly string[]): SizesSent {
  if (texts.length === 0) return NO_SIZES;
  const valid: number[] = [];
  let bad: string | undefined;
  for (const text of texts) {
    const n = sizeValue(text);
    if (n !== undefined) valid.push(n);
    else bad ??= text;
  }
  return { valid, bad };
}

function addSize(g: Group, sent: SizesSent): void {
  g.targets += 1;
  if (sent.bad !== undefined) g.badSizes += 1;
  const sizes = sent.valid;
  if (sizes.length === 0) return;
  g.sized += 1;
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  g.smallest = Number.isNaN(g.smallest) ? lo : Math.min(g.smallest, lo);
  g.largest = Number.isNaN(g.largest) ? hi : Math.max(g.largest, hi);
}

/** A target as a message names it. */
const placeOf = (ref: ActionStepRef, t: Target, i: number): string =>
  t.name ? `target ${t.name}` : `${ref.path}.targetExecutions[${i}]`;

/**
 * Adds a step's listed targets to `tally`: each target joins every group its `by` values name (a key
 * may be sent several times); the member counted is the `member` attribute's value, else the target's
 * name, else its place in the step. One pass over the targets and their attributes: linear in both.
 * A run of 10,000 targets is tallied in one decision that outlives young collections, so what is
 * made per target is only what the tally keeps or a message needs (no place named, no set of one group).
 */
export function tallyTargets(tally: Tally, ref: ActionStepRef, targets: readonly Target[], keys: TallyKeys): void {
  for (let i = 0; i < targets.length; i++) {
    const t = targets[i];
    const values = valuesOf(t, keys);
    const groups = values.groups;
    const members = keys.member === undefined ? [t.name ?? placeOf(ref, t, i)] : values.members;
    if (groups.length === 0 || members.length === 0) {
      tally.unplaced.push(placeOf(ref, t, i));
      continue;
    }
    const sizes = sizesOf(values.sizes);
    for (const value of groups.length === 1 ? groups : [...new Set(groups)]) {
      const g = groupFor(tally, value);
      for (const m of members) g.members.add(m);
      if (sizes.bad !== undefined) g.badSize ??= { where: placeOf(ref, t, i), value: sizes.bad };
      addSize(g, sizes);
    }
  }
}
