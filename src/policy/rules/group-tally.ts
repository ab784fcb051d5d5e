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

const valuesOf = (t: Target, key: string): string[] =>
  (t.attributes ?? []).filter((a) => a.key === key).map((a) => a.value);

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
  valid: number[];
  bad?: string;
}

function sizesOf(t: Target, key: string | undefined): SizesSent {
  const out: SizesSent = { valid: [] };
  if (key === undefined) return out;
  for (const text of valuesOf(t, key)) {
    const n = sizeValue(text);
    if (n !== undefined) out.valid.push(n);
    else out.bad ??= text;
  }
  return out;
}

function addSize(g: Group, where: string, sent: SizesSent): void {
  g.targets += 1;
  if (sent.bad !== undefined) {
    g.badSizes += 1;
    g.badSize ??= { where, value: sent.bad };
  }
  const sizes = sent.valid;
  if (sizes.length === 0) return;
  g.sized += 1;
  const lo = Math.min(...sizes);
  const hi = Math.max(...sizes);
  g.smallest = Number.isNaN(g.smallest) ? lo : Math.min(g.smallest, lo);
  g.largest = Number.isNaN(g.largest) ? hi : Math.max(g.largest, hi);
}

/**
 * Adds a step's listed targets to `tally`: each target joins every group its `by` values name (a key
 * may be sent several times); the member counted is the `member` attribute's value, else the target's
 * name, else its place in the step. One pass over the targets and their attributes: linear in both.
 */
export function tallyTargets(tally: Tally, ref: ActionStepRef, targets: readonly Target[], keys: TallyKeys): void {
  targets.forEach((t, i) => {
    const where = t.name ? `target ${t.name}` : `${ref.path}.targetExecutions[${i}]`;
    const groups = valuesOf(t, keys.by);
    const members = keys.member === undefined ? [t.name ?? where] : valuesOf(t, keys.member);
    if (groups.length === 0 || members.length === 0) {
      tally.unplaced.push(where);
      return;
    }
    const sizes = sizesOf(t, keys.size);
    for (const value of new Set(groups)) {
      const g = groupFor(tally, value);
      for (const m of members) g.members.add(m);
      addSize(g, where, sizes);
    }
  });
}
