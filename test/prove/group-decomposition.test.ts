import fc from 'fast-check';
import type { Step, Target } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import { runOf, spaceOf } from '../../src/prove/dimensions';
import { freshGroup, LAYOUT, type Layout } from '../../src/prove/group-classes';
import { groupedTerms } from '../../src/prove/group-terms';
import type { PolicySet } from '../../src/prove/policy-set';
import { EMPTY_UNCOUNTED, LISTING, writtenAttributes } from '../../src/prove/target-classes';
import { termsOf } from '../../src/prove/terms';
import { OTHER } from '../../src/prove/value-classes';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * The lemma the layouts rest on (docs/decisions/0039-groups-of-targets.md): a term of the set (each
 * rule alone in its policy) denies a one-step run listing any targets (names repeated or missing,
 * keys repeated or missing, values written or not) exactly when it denies one of the layouts that
 * fit inside the run, with the run's listing and count class. "Fits inside" is decided here by brute
 * force: each target of the layout is a distinct target of the run by name (any target of the run,
 * for a layout of one name) carrying its `by` value's class (none: none), the layout's fresh groups
 * distinct values no rule writes, the same one for the targets of one group; and each value (or
 * absence) of another key a layout's target carries is some target's of the run (the value checks
 * are per value, so a group's copies may share one target's values).
 */
const BY = 'k8s.deployment';
const VALUES: Record<string, string[]> = {
  [BY]: ['legacy', 'cart', 'checkout', 'Legacy'],
  'k8s.namespace': ['payments', 'shop', 'other-ns'],
};
const KEYS = Object.keys(VALUES);

const attribute = fc
  .constantFrom(...KEYS)
  .chain((key) => fc.record({ key: fc.constant(key), value: fc.constantFrom(...VALUES[key]) }));
const target = fc.record(
  { name: fc.constantFrom('a', 'b', 'c', 'd', 'e'), attributes: fc.array(attribute, { maxLength: 3 }) },
  { requiredKeys: ['attributes'] },
);
const listing = fc.record({ targetExecutions: fc.array(target, { maxLength: 6 }) }, { requiredKeys: [] }).chain((l) => {
  const n = l.targetExecutions?.length ?? 0;
  return fc
    .oneof(fc.constant(undefined), fc.constant(n), fc.constant(n + 1), fc.constant(Math.max(n - 1, 0)), fc.nat(8))
    .map((totalTargetCount) => ({ ...l, totalTargetCount }));
});

/** The layout's targets (as many as each group counts), each with its values per key. */
const layoutTargets = (l: Layout) =>
  l.groups.flatMap((g, group) => Array.from({ length: g.count }, () => ({ group, values: g.attributes })));

/** Whether the layout fits inside the run's targets (see above), by trying every assignment. */
function fits(layout: Layout, run: readonly Target[], written: ReadonlyMap<string, string[]>): boolean {
  const wanted = layoutTargets(layout);
  const member = (t: Target, i: number) => t.name ?? `#${i}`;
  const valuesOf = (t: Target, key: string) => (t.attributes ?? []).filter((a) => a.key === key).map((a) => a.value);
  const fresh = new Map<string, string>();
  const usedNames = new Set<string>();
  const matches = (k: number): boolean => {
    if (k === wanted.length) return true;
    const { values } = wanted[k];
    for (const [i, t] of run.entries()) {
      // One name (oneName): the layout's targets are one member, any of the run's targets may carry each value.
      if (!layout.oneName && usedNames.has(member(t, i))) continue;
      // Every value choice per key, fresh group values bound as they are met.
      const tryKey = (j: number): boolean => {
        if (j === values.length) {
          usedNames.add(member(t, i));
          if (matches(k + 1)) return true;
          usedNames.delete(member(t, i));
          return false;
        }
        const [key, want] = values[j];
        // Another key than BY: each value (or its absence) is some target's of the run, checked below.
        if (key !== BY) return tryKey(j + 1);
        const have = valuesOf(t, key);
        if (want === undefined) return have.length === 0 && tryKey(j + 1);
        const unwritten = have.filter((v) => !(written.get(key) ?? []).includes(v));
        if (key === BY && want.startsWith(`${OTHER}-group-`)) {
          const bound = fresh.get(want);
          if (bound !== undefined) return unwritten.includes(bound) && tryKey(j + 1);
          for (const v of unwritten) {
            if ([...fresh.values()].includes(v)) continue;
            fresh.set(want, v);
            if (tryKey(j + 1)) return true;
            fresh.delete(want);
          }
          return false;
        }
        return have.includes(want) && tryKey(j + 1);
      };
      if (tryKey(0)) return true;
    }
    return false;
  };
  const carried = wanted.every(({ values }) =>
    values.every(([key, want]) => {
      if (key === BY) return true;
      return run.some((t) => {
        const have = valuesOf(t, key);
        if (want === undefined) return have.length === 0;
        if (want.startsWith(OTHER)) return have.some((v) => !(written.get(key) ?? []).includes(v));
        return have.includes(want);
      });
    }),
  );
  return carried && matches(0);
}

function decomposes(set: PolicySet) {
  const docs = [...set.policies.values(), ...set.exceptions];
  const [terms] = groupedTerms(docs, [termsOf(set)]);
  const analysed = terms.filter((t) => t.outside === undefined);
  expect(analysed.some((t) => t.reads.has(LAYOUT))).toBe(true);
  const space = spaceOf(docs, [set.bundle], [set.aliases], terms, set.bundle.exceptions, NOW);
  const written = writtenAttributes(docs);
  const at = (name: string) => space.index.get(name) as number;
  const layouts = space.dims[at(LAYOUT)].values as Layout[];
  const counts = space.dims[at('count')].values;
  const seen = { denied: 0, allowed: 0, severalFit: 0 };
  const property = fc.property(
    fc.tuple(...space.dims.map((d) => fc.nat({ max: d.values.length - 1 }))),
    listing,
    (a, l) => {
      a[at('estop')] = 0;
      const base = runOf(space, a, [set.bundle]);
      const [first] = base.payload.execution.steps as Step[];
      const step: Step = { ...first };
      delete step.targetExecutions;
      delete step.totalTargetCount;
      if (l.targetExecutions) step.targetExecutions = l.targetExecutions;
      if (l.totalTargetCount !== undefined) step.totalTargetCount = l.totalTargetCount;
      // The run's listing and count class, as the layouts' runs send them.
      const list = step.targetExecutions;
      const n = list?.length ?? 0;
      const expected = step.totalTargetCount ?? (n > 0 ? n : undefined);
      const count =
        expected === undefined
          ? list === undefined
            ? undefined
            : EMPTY_UNCOUNTED
          : Math.max(...counts.filter((c): c is number => typeof c === 'number' && c <= expected));
      const kind = list === undefined ? undefined : n === 0 ? 'empty' : (expected ?? 0) > n ? 'partial' : 'listed';
      const b = [...a];
      b[at('count')] = counts.indexOf(count);
      b[at(LISTING)] = space.dims[at(LISTING)].values.indexOf(kind);
      const inside =
        kind === undefined || kind === 'empty'
          ? [0]
          : layouts.flatMap((x, i) => (fits(x, list ?? [], written) ? [i] : []));
      if (inside.length > 1) seen.severalFit++;
      const runs = inside.map((i) => {
        b[at(LAYOUT)] = i;
        return runOf(space, b, [set.bundle]);
      });
      for (const t of analysed) {
        const denies = (payload: typeof base.payload) =>
          !decide(t.bundle, payload, base.facts, base.now, { decisionId: 't' }).allowed;
        const whole = denies({ ...base.payload, execution: { ...base.payload.execution, steps: [step] } });
        if (t.reads.has(LAYOUT)) seen[whole ? 'denied' : 'allowed']++;
        expect([t.label, runs.some((r) => denies(r.payload))]).toEqual([t.label, whole]);
      }
    },
  );
  return { property, seen };
}

describe('a one-step run is denied by a term exactly when it denies a layout that fits inside it', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}\n---\n`;
  const SET = `${policy('per-deployment', `rules:\n  - perGroup: { by: ${BY}, maxTargets: 2, maxGroups: 2 }`)}${policy(
    'loose',
    `match: { actionKinds: [ATTACK] }\nrules:\n  - perGroup: { by: ${BY}, maxTargets: 3, whenMissing: allow }`,
  )}${policy('legacy', `rules:\n  - targetAttributes: { forbid: { ${BY}: [legacy], k8s.namespace: [payments] }, whenMissing: allow }`)}${policy(
    'caps',
    'rules:\n  - targets: { maxPerStep: 5 }',
  )}`;

  it('for perGroup caps (maxTargets, maxGroups, whenMissing) beside targetAttributes on the same key', () => {
    const { property, seen } = decomposes(setOf(dirs.write({ 'p.yaml': SET })));
    fc.assert(property, { numRuns: 1500, seed: 39 });
    expect(seen.denied).toBeGreaterThan(100);
    expect(seen.allowed).toBeGreaterThan(30);
    expect(seen.severalFit).toBeGreaterThan(100);
  });

  it('the fresh groups of a layout are distinct values no rule writes', () => {
    expect(freshGroup(1)).not.toBe(freshGroup(2));
    expect(VALUES[BY]).not.toContain(freshGroup(1));
  });
});
