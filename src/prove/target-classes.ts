import type { Target } from '../payload/types';
import { SERVICE_KEYS } from '../policy/facts/state-facts';
import type { Doc } from './policy-set';
import type { DimName, Reading } from './term-types';
import { OTHER } from './value-classes';

/**
 * The step's target list as far as the analysed rules tell lists apart (docs/decisions/0028-targets-by-projection.md):
 * not sent (undefined), `empty` (`targetExecutions: []`), `listed` (every target it expects listed,
 * each like the one the `attr:` dimensions describe) or `partial` (one such target listed of the
 * `totalTargetCount` it expects, when that is 2 or more).
 */
export const LISTING: DimName = 'listing';
export type Listing = 'empty' | 'listed' | 'partial';

/** One dimension per attribute key a `targetAttributes` rule writes: the value the class's one target carries (undefined: none). */
export const ATTR = 'attr:';

/**
 * A value of the `count` dimension besides the numbers and "not sent", there when a rule reads
 * targets: `totalTargetCount` not sent and `targetExecutions: []` (the engine counts 0 targets; a
 * target rule finds none listed of an unknown number). Any other list without a count is decided as
 * the run that sends its length, a number class, so this is the one the count alone cannot say.
 */
export const EMPTY_UNCOUNTED = 'not sent, targetExecutions []';
export type CountValue = number | undefined | typeof EMPTY_UNCOUNTED;

/** The rule kinds that read the step's targets; each denies when one target (one value of it) does. */
export const TARGET_RULES: ReadonlySet<string> = new Set(['targetAttributes']);

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});

/** The attribute keys a `targetAttributes` spec compares, with the values it writes for each. */
function specValues(spec: unknown): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const s = asObject(spec);
  for (const part of [s.forbid, s.allowOnly])
    for (const [key, values] of Object.entries(asObject(part))) {
      const list = out.get(key) ?? [];
      if (Array.isArray(values)) for (const v of values) if (typeof v === 'string') list.push(v);
      out.set(key, list);
    }
  return out;
}

/** What a target rule reads: the listing, the expected count (how many copies, whether all are listed), each key's value. */
export function targetRuleReads(spec: unknown, reads: Map<DimName, Reading>): void {
  reads.set(LISTING, 'full');
  reads.set('count', 'full');
  for (const key of specValues(spec).keys()) reads.set(`${ATTR}${key}`, 'full');
}

/** The attribute keys a `noOverlap` spec compares runs by (overlap-classes.ts). */
export const overlapKeys = (spec: unknown): string[] => {
  const by = asObject(spec).by;
  return Array.isArray(by) ? by.filter((k): k is string => typeof k === 'string') : [];
};

/**
 * Every attribute key the documents' `targetAttributes` rules write, with its values, every key a
 * `noOverlap` rule compares by (no value written: whether the targets carry one is what it reads),
 * and the key a cool-down per service names services by (none written).
 */
export function writtenAttributes(docs: readonly Doc[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const doc of docs)
    for (const rule of Array.isArray(doc.rules) ? doc.rules : [])
      for (const [kind, spec] of Object.entries(asObject(rule)))
        if (TARGET_RULES.has(kind))
          for (const [key, values] of specValues(spec)) out.set(key, [...(out.get(key) ?? []), ...values]);
        else if (kind === 'noOverlap') for (const key of overlapKeys(spec)) out.set(key, out.get(key) ?? []);
        else if (kind === 'cooldown' && asObject(spec).per === 'service') {
          // An empty value names no service and is not missing either (signals/attacked-values.ts):
          // decided as another value with no run ended on it, a class already (state-classes.ts).
          const key = typeof asObject(spec).by === 'string' ? (asObject(spec).by as string) : SERVICE_KEYS[0];
          out.set(key, out.get(key) ?? []);
        }
  return out;
}

/**
 * The values of one attribute key: none (the target lacks it), each value written (compared
 * exactly: `Payments` is not `payments`) and one no set writes.
 */
export function attributeValues(written: readonly string[]): Array<string | undefined> {
  return [undefined, ...new Set(written), `${OTHER}-attribute-value`];
}

export interface TargetDims {
  listing: Array<Listing | undefined>;
  attributes: Array<[DimName, Array<string | undefined>]>;
}

/**
 * The target dimensions of a space. Without a rule reading targets, a run listing targets is decided
 * as the run that sends `totalTargetCount` (their number, when it sends none) and no list, so the
 * list is left out (one value: not sent).
 */
export function targetDims(docs: readonly Doc[], readTargets: boolean): TargetDims {
  if (!readTargets) return { listing: [undefined], attributes: [] };
  return {
    listing: [undefined, 'empty', 'listed', 'partial'],
    attributes: [...writtenAttributes(docs)].map(([key, values]) => [`${ATTR}${key}`, attributeValues(values)]),
  };
}

/** The `totalTargetCount` a class's run sends. */
export const sentCount = (count: CountValue): number | undefined => (typeof count === 'number' ? count : undefined);

/**
 * The list a class's run sends: with a count, `listed` is as many copies of the one target as
 * `totalTargetCount` says (one when it is 0), `partial` one target, so a count of 2 or more is not
 * all listed. Each target has the step's target type, when it names one (what `targets.perType`
 * reads). Without a count, no list, or the empty one (EMPTY_UNCOUNTED): so a term that reads only
 * the count (and not the targets) is decided by the count class alone.
 */
export function targetsOfClass(
  listing: Listing | undefined,
  attributes: ReadonlyArray<[string, string | undefined]>,
  count: CountValue,
  type: string | undefined,
): Target[] | undefined {
  if (count === EMPTY_UNCOUNTED) return [];
  if (listing === undefined || count === undefined) return undefined;
  if (listing === 'empty') return [];
  const attrs = attributes.flatMap(([key, value]) => (value === undefined ? [] : [{ key, value }]));
  const copies = listing === 'listed' && count > 1 ? count : 1;
  return Array.from({ length: copies }, (_, i) => ({
    name: `prove-target-${i + 1}`,
    ...(type === undefined ? {} : { type }),
    attributes: attrs,
  }));
}
