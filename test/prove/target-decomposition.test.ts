import fc from 'fast-check';
import type { Step, Target } from '../../src/payload/types';
import { targetTypeOf } from '../../src/policy/core/targeted-step';
import { decide } from '../../src/policy/engine/decide';
import { runOf, spaceOf } from '../../src/prove/dimensions';
import type { PolicySet } from '../../src/prove/policy-set';
import {
  type CountValue,
  EMPTY_UNCOUNTED,
  type Listing,
  sentCount,
  targetsOfClass,
  writtenAttributes,
} from '../../src/prove/target-classes';
import { termsOf } from '../../src/prove/terms';
import { OTHER } from '../../src/prove/value-classes';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * The lemma the target classes rest on (docs/decisions/0028-targets-by-projection.md): a one-step run
 * listing any targets, each with any attributes (a key several times, any case, missing), is denied
 * by the set exactly when one of its projections is: the run that lists only copies of one target
 * carrying one value per key (each value as its class's representative), with the same listing (all
 * listed, or fewer than totalTargetCount), totalTargetCount their number when it is not sent, and
 * the step's target type as the engine reads it; without a rule that reads targets, the run that sends
 * no list and expects as many targets as the engine counts. Checked with the real engine on random runs; the
 * same check fails on planted rules that do not decompose (an ownedBy scope over a target rule, and
 * perGroup, which the analysis decides on layouts of several targets instead: group-decomposition.test.ts).
 */
const VALUES: Record<string, string[]> = {
  'k8s.namespace': ['kube-system', 'payments', 'legacy', 'default', 'Payments'],
  'aws.account': ['111', '222'],
  team: ['shop', 'Shop', 'SHOP', 'PAY'],
  'unrelated.key': ['x', 'y'],
};
const KEYS = Object.keys(VALUES);

const attribute = fc
  .constantFrom(...KEYS)
  .chain((key) => fc.record({ key: fc.constant(key), value: fc.constantFrom(...VALUES[key]) }));
const target = (types: string[]) =>
  fc.record(
    {
      name: fc.constantFrom('a', 'b', 'c'),
      type: fc.constantFrom(...types),
      attributes: fc.array(attribute, { maxLength: 4 }),
    },
    { requiredKeys: [] },
  );
/** A target list, and a totalTargetCount that is often its length, one more, one fewer, or none. */
const listing = fc
  .record(
    {
      targetExecutions: fc.array(target(['com.steadybit.extension_container.container', 'host']), { maxLength: 5 }),
      targetType: fc.constantFrom('com.steadybit.extension_container.container', 'host'),
    },
    { requiredKeys: [] },
  )
  .chain((l) => {
    const n = l.targetExecutions?.length ?? 0;
    return fc
      .oneof(fc.constant(undefined), fc.constant(n), fc.constant(n + 1), fc.constant(Math.max(n - 1, 0)), fc.nat(6))
      .map((totalTargetCount) => ({ ...l, totalTargetCount }));
  });

/** Every choice of one value (or none) per key for one target. */
function selections(t: Target, keys: readonly string[]): Array<Array<[string, string | undefined]>> {
  let out: Array<Array<[string, string | undefined]>> = [[]];
  for (const key of keys) {
    const values = (t.attributes ?? []).filter((a) => a.key === key).map((a) => a.value);
    const choices = values.length === 0 ? [undefined] : values;
    out = out.flatMap((s) => choices.map((v) => [...s, [key, v] as [string, string | undefined]]));
  }
  return out;
}

/** The step's projections: one per target and choice of values, each value as its class's representative. */
function projections(step: Step, written: ReadonlyMap<string, string[]>, keys: readonly string[]): Step[] {
  const list = step.targetExecutions;
  const n = list?.length ?? 0;
  // Not sent: the number listed, or the one class the count alone cannot say (an empty list).
  const count: CountValue = step.totalTargetCount ?? (n > 0 ? n : list === undefined ? undefined : EMPTY_UNCOUNTED);
  const kind: Listing | undefined =
    list === undefined ? undefined : n === 0 ? 'empty' : (sentCount(count) ?? 0) > n ? 'partial' : 'listed';
  const type = targetTypeOf(step);
  const radius = { ...step.radius, ...(type === undefined ? {} : { targetType: type }) };
  const represent = ([key, v]: [string, string | undefined]): [string, string | undefined] => {
    const values = written.get(key);
    return [key, v === undefined || values === undefined || values.includes(v) ? v : `${OTHER}-attribute-value`];
  };
  if (written.size === 0) {
    // No rule reads targets: the run without its list, expecting as many as the engine counts.
    const out: Step = { ...step, ...(Object.keys(radius).length > 0 ? { radius } : {}) };
    delete out.targetExecutions;
    delete out.totalTargetCount;
    const counted = step.totalTargetCount ?? list?.length;
    if (counted !== undefined) out.totalTargetCount = counted;
    return [out];
  }
  const choices = n === 0 ? [[]] : (list ?? []).flatMap((t) => selections(t, keys));
  return choices.map((s) => {
    const out: Step = { ...step, ...(Object.keys(radius).length > 0 ? { radius } : {}) };
    delete out.targetExecutions;
    delete out.totalTargetCount;
    const targets = targetsOfClass(kind, s.map(represent), count, type);
    if (targets !== undefined) out.targetExecutions = targets;
    if (sentCount(count) !== undefined) out.totalTargetCount = sentCount(count);
    return out;
  });
}

/** Random runs of the set: its classes for every other field, any target list; the whole run against its projections. */
function decomposes(set: PolicySet) {
  const docs = [...set.policies.values(), ...set.exceptions];
  const space = spaceOf(docs, [set.bundle], [set.aliases], termsOf(set), set.bundle.exceptions, NOW);
  const written = writtenAttributes(docs);
  const sizes = space.dims.map((d) => d.values.length);
  const seen = { denied: 0, allowed: 0, allowedMany: 0 };
  const property = fc.property(fc.tuple(...sizes.map((n) => fc.nat({ max: n - 1 }))), listing, (a, l) => {
    // The emergency stop denies whatever the targets are; the term lemma's own test varies it.
    a[space.index.get('estop') as number] = 0;
    const run = runOf(space, a, [set.bundle]);
    const steps = run.payload.execution.steps as Step[];
    const step: Step = { ...steps[0], radius: { ...steps[0].radius } };
    delete step.targetExecutions;
    delete step.totalTargetCount;
    delete step.radius?.targetType;
    if (l.targetExecutions) step.targetExecutions = l.targetExecutions;
    if (l.totalTargetCount !== undefined) step.totalTargetCount = l.totalTargetCount;
    if (l.targetType !== undefined) (step.radius ??= {}).targetType = l.targetType;
    if (Object.keys(step.radius ?? {}).length === 0) delete step.radius;
    const denied = (s: Step) =>
      !decide(set.bundle, { ...run.payload, execution: { ...run.payload.execution, steps: [s] } }, run.facts, run.now, {
        decisionId: 't',
      }).allowed;
    const whole = denied(step);
    seen[whole ? 'denied' : 'allowed']++;
    if (!whole && (step.targetExecutions?.length ?? 0) >= 2) seen.allowedMany++;
    expect(projections(step, written, KEYS).some(denied)).toBe(whole);
  });
  return { property, seen };
}

describe('a one-step run is denied exactly when one of its one-target projections is', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}\n---\n`;
  const TARGET_RULES = `${policy(
    'namespaces',
    'match: { actionKinds: [ATTACK] }\nrules:\n  - targetAttributes: { forbid: { k8s.namespace: [kube-system, payments] } }',
  )}${policy(
    'accounts',
    'match: { environments: [production] }\nrules:\n  - targetAttributes: { allowOnly: { aws.account: ["111"] }, whenMissing: allow }',
  )}${policy(
    'owners',
    'rules:\n  - targetAttributes: { forbid: { k8s.namespace: [legacy] }, allowOnly: { team: [shop, Shop] }, whenMissing: allow }',
  )}${policy(
    'caps',
    'rules:\n  - targets: { maxPerStep: 4, perType: { "*container*": { maxPerStep: 2 } }, denyEmpty: true }',
  )}kind: Exception
name: sre-migration
policy: namespaces
owner: sre@example.com
reason: migration CHG-11
expires: "2026-06-01T00:00:00Z"
match: { teams: [SRE] }
`;

  it('for targetAttributes (forbid, allowOnly, whenMissing), count caps and an exception', () => {
    const { property, seen } = decomposes(setOf(dirs.write({ 'p.yaml': TARGET_RULES })));
    fc.assert(property, { numRuns: 2000, seed: 28 });
    expect(seen.denied).toBeGreaterThan(100);
    expect(seen.allowed).toBeGreaterThan(50);
    expect(seen.allowedMany).toBeGreaterThan(20);
  });

  it('for a rule that denies a target it cannot check, with lists of every length', () => {
    const checked = `${policy('checked', 'rules:\n  - targetAttributes: { forbid: { k8s.namespace: [kube-system] } }')}${policy(
      'caps',
      'rules:\n  - targets: { maxPerStep: 4 }',
    )}`;
    const { property, seen } = decomposes(setOf(dirs.write({ 'p.yaml': checked })));
    fc.assert(property, { numRuns: 3000, seed: 28 });
    expect(seen.allowedMany).toBeGreaterThan(10);
  });

  it('without a rule that reads targets, for the run that sends only their number', () => {
    const counts = `${policy(
      'caps',
      'rules:\n  - targets: { maxPerStep: 3, perType: { "*container*": { maxPerStep: 1 } }, denyEmpty: true }',
    )}${policy('only-some', 'match: { actionKinds: [ATTACK] }\nrules:\n  - targets: { maxPercentage: 50, requireMaximum: true }')}`;
    const { property, seen } = decomposes(setOf(dirs.write({ 'p.yaml': counts })));
    fc.assert(property, { numRuns: 1000, seed: 28 });
    expect(seen.allowedMany).toBeGreaterThan(10);
  });

  it('the check fails on a planted perGroup rule: one target per class shows no group (0039 decides it on layouts)', () => {
    const planted = `${policy('per-namespace', 'rules:\n  - perGroup: { by: k8s.namespace, maxTargets: 1, whenMissing: allow }')}${TARGET_RULES}`;
    const { property } = decomposes(setOf(dirs.write({ 'p.yaml': planted })));
    const result = fc.check(property, { numRuns: 600, seed: 28 });
    expect(result.failed).toBe(true);
  });

  it('the check fails on a planted rule that does not decompose: an ownedBy scope over a target rule', () => {
    // Denies when one target is the team's and one (perhaps another) carries unrelated.key=x: an AND of two "any".
    const planted = `${policy(
      'owned-accounts',
      'match: { ownedBy: { team: PAY, attribute: aws.account, values: ["111"], whenMissing: notOwned } }\nrules:\n  - targetAttributes: { forbid: { unrelated.key: [x] }, whenMissing: allow }',
    )}${TARGET_RULES}`;
    const { property } = decomposes(setOf(dirs.write({ 'p.yaml': planted })));
    const result = fc.check(property, { numRuns: 600, seed: 28 });
    expect(result.failed).toBe(true);
    // What it finds (shrunk): two targets, one the team's and one with the forbidden value.
    expect(result.counterexample?.[1].targetExecutions?.length).toBeGreaterThanOrEqual(2);
  });
});
