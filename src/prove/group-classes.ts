import type { Target } from '../payload/types';
import type { Doc } from './policy-set';
import { attributeValues, type CountValue, EMPTY_UNCOUNTED, type Listing, writtenAttributes } from './target-classes';
import type { DimName, Term } from './term-types';
import { OTHER } from './value-classes';

/*
 * Target lists for the rules that count targets together: `perGroup` (docs/decisions/0039-groups-of-targets.md).
 * One target per class (0028) cannot show a group of three pods; a class of this dimension is a
 * **layout**: a few distinct targets, each carrying one value (or none) of every key the rules read,
 * the shapes perGroup can count: one group of as many targets as a cap written plus one (or one
 * target), or as many singleton groups as a maxGroups written plus one.
 */

/** The dimension of the layouts, there instead of the `attr:<key>` ones when an analysed perGroup rule is written. */
export const LAYOUT: DimName = 'targets';

/** One group of a layout: `count` distinct targets carrying the same values (the `by` key's among them). */
export interface LayoutGroup {
  count: number;
  attributes: ReadonlyArray<[string, string | undefined]>;
}
export interface Layout {
  groups: readonly LayoutGroup[];
  /**
   * Every target of the layout has one name: one member of each of its groups, as one target of a
   * real run carrying several values of the key is (perGroup counts members by name), so that
   * maxGroups + 1 groups fit inside a run with fewer targets than groups.
   */
  oneName?: true;
}

/** Past this many layouts the perGroup rules stay beyond the analysis (every layout is a class of every target rule). */
export const MAX_LAYOUTS = 2_000;

/** What an analysed perGroup rule counts (member and maxShare are beyond the analysis: groupRuleReads, group-terms.ts). */
export interface GroupSpec {
  by: string;
  maxTargets?: number;
  maxGroups?: number;
}

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** Why a perGroup spec is beyond the analysis, or undefined when its caps are counted by the layouts. */
export function groupSpecOutside(spec: unknown): string | undefined {
  const s = asObject(spec);
  if (s.member !== undefined) return `member (counting distinct values of ${String(s.member)}) is not analysed`;
  if (s.maxShare !== undefined) return "maxShare (a share of each group's size) is not analysed";
  return undefined;
}

/** The analysed perGroup specs the documents write. */
export function groupSpecs(docs: readonly Doc[]): GroupSpec[] {
  const out: GroupSpec[] = [];
  for (const doc of docs)
    for (const rule of Array.isArray(doc.rules) ? doc.rules : []) {
      const spec = asObject(asObject(rule).perGroup);
      if (typeof spec.by !== 'string' || groupSpecOutside(spec) !== undefined) continue;
      out.push({
        by: spec.by,
        ...(typeof spec.maxTargets === 'number' ? { maxTargets: spec.maxTargets } : {}),
        ...(typeof spec.maxGroups === 'number' ? { maxGroups: spec.maxGroups } : {}),
      });
    }
  return out;
}

/** A value of the `by` key no rule writes: the i-th group of a layout that names none written. */
export const freshGroup = (i: number) => `${OTHER}-group-${i}`;

/** Every choice of one value per key: the product of the keys' classes. */
function combinations(
  keys: ReadonlyArray<[string, Array<string | undefined>]>,
): Array<Array<[string, string | undefined]>> {
  let out: Array<Array<[string, string | undefined]>> = [[]];
  for (const [key, values] of keys)
    out = out.flatMap((c) => values.map((v) => [...c, [key, v] as [string, string | undefined]]));
  return out;
}

/** The multisets of `size` items of `0..n-1` (non-decreasing index lists), at most `limit + 1` of them. */
function multisets(n: number, size: number, limit: number): number[][] {
  const out: number[][] = [];
  const pick = (from: number, acc: number[]): void => {
    if (out.length > limit) return;
    if (acc.length === size) {
      out.push(acc);
      return;
    }
    for (let i = from; i < n; i++) pick(i, [...acc, i]);
  };
  pick(0, []);
  return out;
}

/**
 * The layouts of the documents' analysed perGroup rules, or why there are too many (or none: no such
 * rule). All of them must group by one key: a layout's copies share every value, so a group under
 * one key would be a group under another too, which a real run need not be.
 */
export function groupLayouts(docs: readonly Doc[]): { layouts?: Layout[]; why?: string } {
  const specs = groupSpecs(docs);
  if (specs.length === 0) return {};
  const bys = [...new Set(specs.map((s) => s.by))];
  if (bys.length > 1)
    return { why: `perGroup rules group by different attributes (${bys.join(', ')}), not analysed together` };
  const [by] = bys;
  const written = writtenAttributes(docs);
  const byWritten = [...new Set(written.get(by) ?? [])];
  const others = combinations(
    [...written].filter(([key]) => key !== by).map(([key, values]) => [key, attributeValues(values)]),
  );
  const counts = [...new Set([1, ...specs.flatMap((s) => (s.maxTargets === undefined ? [] : [s.maxTargets + 1]))])];
  const sizes = [...new Set(specs.flatMap((s) => (s.maxGroups === undefined ? [] : [s.maxGroups + 1])))];
  const layouts: Layout[] = [];
  const group = (count: number, value: string | undefined, rest: Array<[string, string | undefined]>): LayoutGroup => ({
    count,
    attributes: [[by, value], ...rest],
  });
  // One group of `count` targets (one target may carry no `by` value: it cannot be placed).
  for (const count of counts)
    for (const value of [...(count === 1 ? [undefined] : []), ...byWritten, freshGroup(1)])
      for (const rest of others) layouts.push({ groups: [group(count, value, rest)] });
  // As many singleton groups as a maxGroups allows plus one: each a written value (once) or a fresh one.
  const kinds = [...byWritten, undefined].flatMap((value) => others.map((rest) => ({ value, rest })));
  for (const size of sizes) {
    for (const picked of multisets(kinds.length, size, MAX_LAYOUTS)) {
      const values = picked.map((i) => kinds[i].value);
      const named = values.filter((v) => v !== undefined);
      if (new Set(named).size < named.length) continue;
      let fresh = 0;
      layouts.push({
        groups: picked.map((i) => group(1, kinds[i].value ?? freshGroup(++fresh), kinds[i].rest)),
        oneName: true,
      });
    }
    if (layouts.length > MAX_LAYOUTS) break;
  }
  if (layouts.length > MAX_LAYOUTS)
    return { why: `perGroup by ${by} needs more than ${MAX_LAYOUTS} target layouts (its caps and the values written)` };
  return { layouts };
}

/** The layouts, when a term reads them (groupedTerms, group-terms.ts, moved it to them), else undefined. */
export function layoutsRead(docs: readonly Doc[], terms: readonly Term[]): Layout[] | undefined {
  if (!terms.some((t) => t.reads.has(LAYOUT))) return undefined;
  const { layouts, why } = groupLayouts(docs);
  if (layouts === undefined) throw new Error(`target layouts read but not made: ${why ?? 'no perGroup rule'}`);
  return layouts;
}

/** How many distinct targets the layouts list: each a count class's bound, so that `partial` (fewer listed than expected) holds in every class it can. */
export function layoutSizes(layouts: readonly Layout[] | undefined): number[] {
  const sizes = new Set<number>();
  for (const l of layouts ?? []) sizes.add(l.groups.reduce((n, g) => n + g.count, 0));
  return [...sizes];
}

/**
 * The list a layout's run sends, as targetsOfClass (target-classes.ts) for one target: none without
 * a count (the empty list for EMPTY_UNCOUNTED), else each group's targets, distinct by name; with
 * every target listed, copies of the first target (its name too) up to `totalTargetCount`, which
 * perGroup counts once and targetAttributes reads as that target, so a run expecting 10,001 targets
 * lists them. `partial` lists the layout's targets alone.
 */
export function layoutTargets(
  layout: Layout,
  listing: Listing | undefined,
  count: CountValue,
  type: string | undefined,
): Target[] | undefined {
  if (count === EMPTY_UNCOUNTED) return [];
  if (listing === undefined || count === undefined) return undefined;
  if (listing === 'empty') return [];
  const targets: Target[] = [];
  for (const g of layout.groups) {
    const attributes = g.attributes.flatMap(([key, value]) => (value === undefined ? [] : [{ key, value }]));
    for (let i = 0; i < g.count; i++)
      targets.push({
        name: `prove-target-${layout.oneName ? 1 : targets.length + 1}`,
        ...(type === undefined ? {} : { type }),
        attributes,
      });
  }
  const [first] = targets;
  if (listing === 'listed') while (targets.length < count) targets.push(first);
  return targets;
}
