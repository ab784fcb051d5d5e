import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { diffSets, type Witness } from '../../src/prove/analysis';
import { spaceOf } from '../../src/prove/dimensions';
import { Judge, search } from '../../src/prove/search';
import type { Term } from '../../src/prove/term-types';
import { termsOf } from '../../src/prove/terms';
import { generatedSize } from '../helpers/test-lane';
import { BUNDLED, evalWitness, NOW, setDirs, setOf } from './prove-sets';

/*
 * The bundled Kubernetes guard with its targetAttributes rule changed (docs/prove.md, "How it works":
 * per-term classes, scope first, the rule alone; docs/decisions/0037-per-term-classes.md).
 */
const GUARD = 'kubernetes-namespace-guard.yaml';
const guard = readFileSync(join(BUNDLED, GUARD), 'utf8');
/** The guard with the namespaces its targetAttributes rule (the second list in the file) forbids. */
const targetRuleForbids = (list: string) => {
  const at = guard.lastIndexOf('k8s.namespace: [kube-system]');
  return `${guard.slice(0, at)}k8s.namespace: [${list}]${guard.slice(at + 'k8s.namespace: [kube-system]'.length)}`;
};

const step = (w: Witness) => w.payload.execution.steps?.[0] ?? {};
const namespacesOf = (w: Witness) =>
  (step(w).targetExecutions ?? []).flatMap((t) =>
    (t.attributes ?? []).filter((a) => a.key === 'k8s.namespace').map((a) => a.value),
  );

describe('diff: the bundled namespace guard, its targets rule changed', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const base = setOf(BUNDLED);

  it('kube-public forbidden too (in both rules): a run with a target in kube-public is newly denied', async () => {
    const both = guard.replaceAll('k8s.namespace: [kube-system]\n', 'k8s.namespace: [kube-system, kube-public]\n');
    expect(both).not.toBe(guard);
    const dir = dirs.bundledWith({ [GUARD]: both });
    const r = diffSets(base, setOf(dir), NOW);
    expect(r.unknown.join('\n')).not.toMatch(/more classes than the search decides/);
    const denied = r.witnesses.filter((w) => w.kind === 'newly-denied');
    // One witness per changed rule: the blastRadius rule's (a predicate selecting kube-public, record
    // 0038) and the targets rule's, the one this file is about.
    expect(denied.map((w) => w.rule?.path).sort()).toEqual(['rules[0].blastRadius', 'rules[1].targetAttributes']);
    const w = denied.find((d) => d.rule?.path === 'rules[1].targetAttributes') as Witness;
    expect(w.rule).toEqual({ policy: 'kubernetes-namespace-guard', path: 'rules[1].targetAttributes' });
    expect(namespacesOf(w)).toEqual(['kube-public']);
    expect(w.payload.execution.environment ?? w.payload.execution.overrides?.environment).toBe('production');
    expect([w.base?.allowed, w.proposed?.allowed]).toEqual([true, false]);
    // eval decides the witness the same, in-process, on each directory.
    expect(await evalWitness(BUNDLED, w)).toBe(true);
    expect(await evalWitness(dir, w)).toBe(false);
  });

  it('kube-system misspelt in the targets rule alone: a run with a target in kube-system is newly allowed', async () => {
    const dir = dirs.bundledWith({ [GUARD]: targetRuleForbids('kube-sytem') });
    const r = diffSets(base, setOf(dir), NOW);
    expect(r.changedRules.proposed).toEqual(['kubernetes-namespace-guard rules[1].targetAttributes']);
    const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed');
    expect(allowed.length).toBeGreaterThan(0);
    const [w] = allowed;
    expect(namespacesOf(w)).toEqual(['kube-system']);
    expect([w.base?.allowed, w.proposed?.allowed]).toEqual([false, true]);
    expect(await evalWitness(BUNDLED, w)).toBe(false);
    expect(await evalWitness(dir, w)).toBe(true);
  });
});

/* Small random sets: the per-term search finds a run in exactly the classes the full search does. */
const ENVS = ['production', 'staging'];
const policy = fc.record({
  envs: fc.subarray(ENVS),
  actionIds: fc.option(fc.constantFrom('com.example.k8s.*', '*restart*'), { nil: undefined }),
  exclude: fc.option(fc.constantFrom('teams: [ADM]', 'actionKinds: [CHECK]'), { nil: undefined }),
  rule: fc.constantFrom(
    'environments: { blocked: [staging] }',
    'targetAttributes: { forbid: { k8s.namespace: [kube-system] }, whenMissing: allow }',
    'targetAttributes: { forbid: { k8s.namespace: [kube-system, kube-public] } }',
    'targetAttributes: { allowOnly: { k8s.namespace: [shop] }, whenMissing: allow }',
    'actions: { blocked: ["*restart*"] }',
    'targets: { maxPercentage: 25 }',
    'targets: { maxPerStep: 3 }',
  ),
});
interface Written {
  envs: string[];
  actionIds?: string;
  exclude?: string;
  rule: string;
}
const setText = (ps: readonly Written[]) =>
  ps
    .map((p, i) => {
      const match = [
        p.envs.length > 0 ? `environments: [${p.envs.join(', ')}]` : '',
        p.actionIds ? `actionIds: ["${p.actionIds}"]` : '',
      ]
        .filter((f) => f !== '')
        .join(', ');
      return `kind: Policy\nname: p${i}\n${match ? `match: { ${match} }\n` : ''}${p.exclude ? `exclude: { ${p.exclude} }\n` : ''}rules:\n  - ${p.rule}\n`;
    })
    .join('---\n');

describe('per-term classes lose nothing', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  /*
   * On small random sets and random runs of their space: each term (the rule alone where its scope
   * takes the run in, per-term blocks) answers as the full split decides it, and two values of one of
   * its blocks are decided alike by the engine (the term's answer is a function of its blocks).
   */
  it('on small random sets, a term answers alike on the values of each of its classes, as the full split says', () => {
    fc.assert(
      fc.property(
        fc.array(policy, { minLength: 1, maxLength: 3 }),
        fc.array(policy, { minLength: 1, maxLength: 3 }),
        fc.array(fc.array(fc.nat(), { minLength: 40, maxLength: 40 }), { minLength: 6, maxLength: 6 }),
        (b, p, picks) => {
          const base = setOf(dirs.write({ 'p.yaml': setText(b) }));
          const proposed = setOf(dirs.write({ 'p.yaml': setText(p) }));
          const terms = [...termsOf(base), ...termsOf(proposed)].filter((t) => t.outside === undefined);
          const docs = [...base.policies.values(), ...proposed.policies.values()];
          const space = spaceOf(docs, [base.bundle, proposed.bundle], [{}, {}], terms, [], NOW);
          const coarse = new Judge(space, [base.bundle, proposed.bundle], true);
          const full = new Judge(space, [base.bundle, proposed.bundle], false);
          for (const pick of picks) {
            const a = space.dims.map((d, i) => pick[i % pick.length] % d.values.length);
            for (const t of terms) {
              const answer = full.denies(t, a);
              expect([t.label, coarse.denies(t, a)]).toEqual([t.label, answer]);
              for (const d of t.reads.keys()) {
                const i = space.index.get(d) as number;
                const blocks = coarse.blocksOf(t, d);
                const other = blocks.lastIndexOf(blocks[a[i]]);
                const b2 = [...a];
                b2[i] = other;
                expect([t.label, d, String(space.dims[i].values[other]), full.denies(t, b2)]).toEqual([
                  t.label,
                  d,
                  String(space.dims[i].values[other]),
                  answer,
                ]);
              }
            }
          }
        },
      ),
      { numRuns: generatedSize(60, 20), seed: 47 },
    );
  });

  it('the namespace guard pair: the per-term search decides every class of the base rule (no cap)', () => {
    const dir = dirs.bundledWith({
      [GUARD]: guard.replaceAll('k8s.namespace: [kube-system]\n', 'k8s.namespace: [kube-system, kube-public]\n'),
    });
    const base = setOf(BUNDLED);
    const proposed = setOf(dir);
    const tb = termsOf(base);
    const tp = termsOf(proposed);
    const docs = [...base.policies.values(), ...proposed.policies.values()];
    const space = spaceOf(
      docs,
      [base.bundle, proposed.bundle],
      [base.aliases, proposed.aliases],
      [...tb, ...tp],
      [],
      NOW,
    );
    const judge = new Judge(space, [base.bundle, proposed.bundle]);
    const must = tb.find((t) => t.label.endsWith('targetAttributes')) as Term;
    // kube-system targets are denied by both: no class of the base rule is newly allowed, and every one is decided.
    const r = search(
      judge,
      must,
      tp.filter((t) => t.outside === undefined),
    );
    expect(r).toMatchObject({ found: [], complete: true });
  });
});
