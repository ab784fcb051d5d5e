import { diffSets, proveProperty, type Witness } from '../../src/prove/analysis';
import { readProperties } from '../../src/prove/property-file';
import { evalWitness, expectDecided, NOW, setDirs, setOf } from './prove-sets';

/**
 * Pairs of sets whose differences lie in how many targets of one group a step reaches (perGroup,
 * docs/prove.md): diff finds each with a witness listing several targets, decided again here with
 * both whole sets, in-process and by `eval` on each directory.
 */
const groups = (spec: string, name = 'per-deployment') => `kind: Policy
name: ${name}
rules:
  - perGroup: ${spec}
`;

const targetsOf = (w: Witness) => w.payload.execution.steps?.[0]?.targetExecutions ?? [];
/** The distinct targets (by name) of each value of `key` the witness lists. */
function groupSizes(w: Witness, key: string): Map<string, number> {
  const names = new Map<string, Set<string>>();
  for (const t of targetsOf(w))
    for (const a of t.attributes ?? [])
      if (a.key === key) names.set(a.value, (names.get(a.value) ?? new Set()).add(t.name ?? ''));
  return new Map([...names].map(([v, s]) => [v, s.size]));
}

describe('diff: known differences in targets counted per group', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = async (base: Record<string, string>, proposed: Record<string, string>) => {
    const bd = dirs.write(base);
    const pd = dirs.write(proposed);
    const b = setOf(bd);
    const p = setOf(pd);
    const r = diffSets(b, p, NOW);
    expectDecided(r, b, p);
    // eval on each directory (the CLI's own reading of the witness) answers as the witness says.
    for (const w of r.witnesses) {
      expect(await evalWitness(bd, w)).toBe(w.base?.allowed);
      expect(await evalWitness(pd, w)).toBe(w.proposed?.allowed);
    }
    return r;
  };

  it('identical perGroup rules: no run would be decided differently', async () => {
    const p = { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 2, maxGroups: 2 }') };
    const r = await diff(p, p);
    expect(r.witnesses).toEqual([]);
    expect(r.unknown).toEqual([]);
  });

  it('maxTargets raised from 2 to 3: a step reaching 3 targets of one deployment is newly allowed', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 2 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 3 }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    expect([...groupSizes(w, 'k8s.deployment').values()]).toEqual([3]);
    expect(w.base?.message).toMatch(/acts on 3 targets of k8s\.deployment=.*more than the 2 allowed/);
  });

  it('maxTargets lowered from 3 to 2: the same run is newly denied', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 3 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 2 }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    expect([...groupSizes(r.witnesses[0], 'k8s.deployment').values()]).toEqual([3]);
  });

  it('maxGroups raised from 1 to 2: a step touching two deployments is newly allowed', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, maxGroups: 1 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, maxGroups: 2 }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const sizes = groupSizes(r.witnesses[0], 'k8s.deployment');
    expect([...sizes.values()]).toEqual([1, 1]);
    expect(r.witnesses[0].base?.message).toMatch(/touches 2 values of k8s\.deployment/);
  });

  it('whenMissing loosened to allow: a run with a target it cannot place is newly allowed', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 2 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, maxTargets: 2, whenMissing: allow }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].base?.message).toMatch(/cannot decide/);
  });

  it('a cap raised beside a forbidden value of the same key: the group of the witness is not the forbidden one', async () => {
    const set = (cap: number) => ({
      'p.yaml': groups(`{ by: k8s.namespace, maxTargets: ${cap} }`),
      'n.yaml': `kind: Policy\nname: namespaces\nrules:\n  - targetAttributes: { forbid: { k8s.namespace: [payments] } }\n`,
    });
    const r = await diff(set(1), set(4));
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const sizes = groupSizes(r.witnesses[0], 'k8s.namespace');
    expect([...sizes.values()]).toEqual([2]);
    expect(sizes.has('payments')).toBe(false);
  });

  it('a witness of a step expecting more targets than a count cap lists them all, one group counted', async () => {
    const set = (groupCap: number) => ({
      'p.yaml': groups(`{ by: k8s.deployment, maxTargets: ${groupCap} }`),
      'cap.yaml': 'kind: Policy\nname: cap\nrules:\n  - targets: { maxPerStep: 20 }\n',
    });
    const r = await diff(set(2), set(3));
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const step = r.witnesses[0].payload.execution.steps?.[0];
    expect(targetsOf(r.witnesses[0]).length).toBeGreaterThanOrEqual(step?.totalTargetCount ?? 0);
  });

  it('a perGroup rule counting members changed is unknown, naming the rule, never "no difference"', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, member: k8s.pod.name, maxTargets: 2 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, member: k8s.pod.name, maxTargets: 3 }') },
    );
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(
      /per-deployment rules\[0\]\.perGroup changed and is beyond the analysis: perGroup member/,
    );
  });

  it('two perGroup rules grouping by different keys: the changed one is unknown, naming why', async () => {
    const other = groups('{ by: k8s.node.name, maxTargets: 5 }', 'per-node');
    const r = await diff(
      { 'p.yaml': `${groups('{ by: k8s.deployment, maxTargets: 2 }')}---\n${other}` },
      { 'p.yaml': `${groups('{ by: k8s.deployment, maxTargets: 3 }')}---\n${other}` },
    );
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(/group by different attributes \(k8s\.deployment, k8s\.node\.name\)/);
  });

  it('per: run changed: runs of several steps are unknown, one step still finds the witness', async () => {
    const r = await diff(
      { 'p.yaml': groups('{ by: k8s.deployment, per: run, maxTargets: 2 }') },
      { 'p.yaml': groups('{ by: k8s.deployment, per: run, maxTargets: 3 }') },
    );
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.unknown.join('\n')).toMatch(
      /runs of two or more action steps where per-deployment rules\[0\]\.perGroup decides: its per: run/,
    );
  });
});

describe('prove: a property counting targets per group', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const PROPERTY = `kind: PolicyProperty
name: at-most-two-per-deployment
never:
  rules:
    - perGroup: { by: k8s.deployment, maxTargets: 2 }
`;
  const prove = (cap: number) => {
    const dir = dirs.write({
      'p.yaml': groups(`{ by: k8s.deployment, maxTargets: ${cap} }`),
      'x.property.yaml': PROPERTY,
    });
    const set = setOf(dir);
    const [property] = readProperties(dir, set.aliases, NOW).properties;
    return { dir, result: proveProperty(set, property, NOW) };
  };

  it('a set capping each deployment at 2 targets proves it', () => {
    expect(prove(2).result).toMatchObject({ status: 'proven' });
  });

  it('a set capping at 3 has a counterexample of 3 targets in one deployment, allowed by eval', async () => {
    const { dir, result } = prove(3);
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect([...groupSizes(w, 'k8s.deployment').values()]).toEqual([3]);
    expect(await evalWitness(dir, w)).toBe(true);
  });
});
