import fc from 'fast-check';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { assembleBundle } from '../../src/policy/compile/assemble-bundle';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { actionSteps } from '../../src/policy/engine/action-steps';
import { decide } from '../../src/policy/engine/decide';
import { runOf, type Space, spaceOf } from '../../src/prove/dimensions';
import type { PolicySet } from '../../src/prove/policy-set';
import type { Term } from '../../src/prove/term-types';
import { termsOf } from '../../src/prove/terms';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { BUNDLED, NOW, setDirs, setOf } from './prove-sets';

/**
 * The step decomposition lemma (docs/decisions/0027-runs-of-several-steps.md), checked with the real
 * engine on random runs of two to four action steps and their one-step projections (the run with
 * only one of its action steps, every run-level field kept):
 * - lift: a term that denies a projection denies the whole run (every analysed term);
 * - project: a term that denies the whole run denies one of its projections (every term not marked
 *   `coupled`: no total across steps, at most one exception scoped to steps);
 * - a policy denies the run exactly when one of its terms does (policies without two exceptions scoped to steps);
 * - so a set of such terms denies the run exactly when it denies one of its projections.
 * Planted totals and step-scoped exceptions break "project", and are caught.
 */

const STEP_DIMS = (name: string) =>
  ['actionId', 'actionKind', 'count', 'pct', 'maximum', 'targetType'].includes(name) || name.startsWith('param:');

interface SeveralSteps {
  whole: ReturnType<typeof runOf>;
  projections: ReturnType<typeof runOf>[];
}

/** A run whose run-level fields are `a`'s and whose steps are each step assignment's one step (those that are action steps). */
function severalSteps(space: Space, a: number[], steps: number[][], bundles: readonly PolicyBundle[]): SeveralSteps {
  const stepAt = space.dims.map((d) => STEP_DIMS(d.name));
  const projections = steps
    .map((s) => {
      let k = 0;
      return runOf(
        space,
        a.map((v, i) => (stepAt[i] ? s[k++] : v)),
        bundles,
      );
    })
    .filter((r) => actionSteps(r.payload.execution.steps).length === 1);
  const whole = runOf(space, a, bundles);
  const execution = { ...whole.payload.execution, steps: projections.flatMap((r) => r.payload.execution.steps ?? []) };
  return { whole: { ...whole, payload: { ...whole.payload, execution } as PreflightPayload }, projections };
}

/** The terms of the set's own policies (not the built-in emergency stop). */
const userTerms = (set: PolicySet) => termsOf(set).filter((t) => !t.key.startsWith('built-in:'));

const denies = (bundle: PolicyBundle, run: ReturnType<typeof runOf>) =>
  !decide(bundle, run.payload, run.facts, run.now, { decisionId: 'steps' }).allowed;

function arbitraryRun(space: Space) {
  const sizes = space.dims.map((d) => d.values.length);
  const stepSizes = space.dims.filter((d) => STEP_DIMS(d.name)).map((d) => d.values.length);
  const index = (n: number) => fc.nat({ max: n - 1 });
  return fc.tuple(
    fc.tuple(...sizes.map(index)),
    fc.array(fc.tuple(...stepSizes.map(index)), { minLength: 2, maxLength: 4 }),
  );
}

function spaceOfSet(set: PolicySet, terms: readonly Term[]): Space {
  return spaceOf(
    [...set.policies.values(), ...set.exceptions],
    [set.bundle],
    [set.aliases],
    terms,
    set.bundle.exceptions,
    NOW,
  );
}

/** The lemma's parts on random runs of the set; `ignoreCoupling` also asks "project" of coupled terms (a planted failure). */
function lemma(set: PolicySet, opts: { numRuns: number; seed: number; ignoreCoupling?: boolean }) {
  const terms = termsOf(set).filter((t) => t.outside === undefined);
  const space = spaceOfSet(set, terms);
  const counted = { severalSteps: 0, denied: 0 };
  const result = fc.check(
    fc.property(arbitraryRun(space), ([a, steps]) => {
      const run = severalSteps(space, a, steps, [set.bundle]);
      if (run.projections.length < 2) return true;
      counted.severalSteps++;
      for (const t of terms) {
        const whole = denies(t.bundle, run.whole);
        const some = run.projections.some((p) => denies(t.bundle, p));
        if (some && !whole) return false;
        if (whole && !some && (t.coupled === undefined || opts.ignoreCoupling)) return false;
      }
      if (denies(set.bundle, run.whole)) counted.denied++;
      return true;
    }),
    { numRuns: opts.numRuns, seed: opts.seed },
  );
  return { failed: result.failed, counterexample: result.counterexample, ...counted };
}

/** A policy denies a run of several steps exactly when one of its terms does (each term: the policy with one of its rules). */
function policiesAreTheirTerms(set: PolicySet, seed: number, ignoreCoupling = false, numRuns = 300) {
  const terms = termsOf(set);
  const space = spaceOfSet(set, terms);
  const byPolicy = new Map<string, Term[]>();
  for (const t of terms) byPolicy.set(t.policy, [...(byPolicy.get(t.policy) ?? []), t]);
  const alone = new Map(
    [...byPolicy.keys()].map((name) => [
      name,
      assembleBundle({ ...set.bundle, policies: set.bundle.policies.filter((p) => p.name === name) }),
    ]),
  );
  return fc.check(
    fc.property(arbitraryRun(space), ([a, steps]) => {
      const { whole } = severalSteps(space, a, steps, [set.bundle]);
      for (const [name, ts] of byPolicy) {
        if (!ignoreCoupling && ts.some((t) => t.coupled !== undefined)) continue;
        const policy = denies(alone.get(name) as PolicyBundle, whole);
        if (policy !== ts.some((t) => denies(t.bundle, whole))) return false;
      }
      return true;
    }),
    { numRuns, seed },
  );
}

describe('a run of several action steps is decided by its one-step projections', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  const stepExceptions = `kind: Exception
name: gameday-attacks
policy: production-guardrails
owner: sre@example.com
reason: gameday CHG-7
expires: "2026-03-09T00:00:00Z"
match: { teams: [SRE], actionKinds: [ATTACK] }
`;

  it.each([
    ['the bundled set', () => BUNDLED],
    ['the bundled set with an exception scoped to steps', () => dirs.bundledWith({ 'gameday.yaml': stepExceptions })],
  ])('%s: lift for every term, project for every term not coupled', (_name, dir) => {
    const r = lemma(setOf(dir()), { numRuns: 300, seed: 47 });
    expect(r.counterexample).toBeNull();
    expect(r.failed).toBe(false);
    expect(r.severalSteps).toBeGreaterThan(100);
    expect(r.denied).toBeGreaterThan(0);
  });

  it('the bundled set: each policy denies a run of several steps exactly when one of its terms does', () => {
    expect(policiesAreTheirTerms(setOf(BUNDLED), 48).failed).toBe(false);
  });

  it('generated sets of the analysed rule kinds: the whole set denies exactly when it denies a projection', () => {
    const dir = dirs.write({});
    const kinds = ['environments', 'actions', 'targets', 'timeWindow', 'parameters'];
    // The platform policies (no scope) deny nearly every run of several steps: the teams' ones tell runs apart.
    for (const f of generatePolicySet(60, kinds, 47))
      if (!f.text.startsWith('kind: Policy') || f.text.includes('match:')) writeFileSync(join(dir, f.file), f.text);
    const set = setOf(dir);
    expect(termsOf(set).every((t) => t.outside === undefined && t.coupled === undefined)).toBe(true);
    const space = spaceOfSet(set, termsOf(set));
    let mixed = 0;
    fc.assert(
      fc.property(arbitraryRun(space), ([a, steps]) => {
        const run = severalSteps(space, a, steps, [set.bundle]);
        const each = run.projections.map((p) => denies(set.bundle, p));
        // Runs where one step is denied alone and another allowed alone: the answer rests on the lemma.
        if (each.includes(true) && each.includes(false)) mixed++;
        expect(each.includes(true)).toBe(denies(set.bundle, run.whole));
      }),
      { numRuns: 600, seed: 49 },
    );
    expect(mixed).toBeGreaterThan(0);
  });

  // Planted: constructs that do not decompose. Each is marked coupled, and asking "project" of it anyway fails.
  const planted = {
    'a total across steps': `kind: Policy
name: unattended
rules:
  - targets: { maxPerStep: 10, maxTotal: 12 }
`,
    'two exceptions scoped to steps': `kind: Policy
name: no-attacks
rules:
  - actions: { blockedKinds: [ATTACK] }
---
kind: Exception
name: pods
policy: no-attacks
owner: sre@example.com
reason: CHG-1
expires: "2030-01-01T00:00:00Z"
match: { actionIds: ["pod-*"] }
---
kind: Exception
name: nodes
policy: no-attacks
owner: sre@example.com
reason: CHG-2
expires: "2030-01-01T00:00:00Z"
match: { actionIds: ["node-*"] }
`,
  };

  it.each(Object.entries(planted))('planted %s: marked coupled, and "project" fails on it', (_name, text) => {
    const set = setOf(dirs.write({ 'p.yaml': text }));
    expect(userTerms(set).map((t) => t.coupled !== undefined)).toEqual([true]);
    expect(lemma(set, { numRuns: 300, seed: 50 }).failed).toBe(false);
    const planted = lemma(set, { numRuns: 300, seed: 50, ignoreCoupling: true });
    expect(planted.failed).toBe(true);
    expect(planted.counterexample).not.toBeNull();
  });

  it('planted two exceptions scoped to steps on a policy of two rules: the policy denies runs none of its terms does', () => {
    const text = planted['two exceptions scoped to steps'].replace(
      '  - actions: { blockedKinds: [ATTACK] }\n',
      '  - actions: { blockedKinds: [ATTACK] }\n  - parameters: { duration: { max: 60, whenMissing: allow } }\n',
    );
    const set = setOf(dirs.write({ 'p.yaml': text }));
    expect(userTerms(set).map((t) => t.coupled !== undefined)).toEqual([true, true]);
    expect(policiesAreTheirTerms(set, 51).failed).toBe(false);
    expect(policiesAreTheirTerms(set, 51, true, 3000).failed).toBe(true);
  });
});
