import fc from 'fast-check';
import { decide } from '../../src/policy/engine/decide';
import type { EndState, RunRef, StateFacts } from '../../src/policy/facts/state-facts';
import { type EnvClass, runOf, spaceOf } from '../../src/prove/dimensions';
import { STATE } from '../../src/prove/state-classes';
import { termsOf } from '../../src/prove/terms';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * What the state dimensions rest on (docs/decisions/0035-state-as-fact-classes.md): whatever runs
 * the store lists under each of a run's scopes (its environment, its override, its team; runs in
 * progress, started at any age, ended in any state at any age, the run's own id among them), every
 * analysed state rule decides the run as it decides one class of the dimension of its part.
 */
describe('every state the store can list is decided by every state rule as one class is', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const dir = dirs.write({
    'limits.yaml': `kind: Policy
name: limits
rules:
  - concurrency: { maxRunning: 2 }
  - concurrency: { maxRunning: 1, per: team }
  - quota: { maxRuns: 2, window: 1h }
  - quota: { maxRuns: 4, window: 1d }
  - quota: { maxRuns: 3, window: 1d, per: environment }
  - cooldown: { duration: 30m }
  - cooldown: { duration: 2h, after: [CANCELED, FAILED] }
  - cooldown: { duration: 1h, per: team, after: [COMPLETED] }
`,
  });
  const set = setOf(dir);
  const terms = termsOf(set).filter((t) => [...t.reads.keys()].some((d) => d.startsWith(STATE)));
  const space = spaceOf([...set.policies.values()], [set.bundle], [set.aliases], terms, [], NOW);
  // A run in an environment with an override (two environment scopes) and a team.
  const at = (name: string, ok: (v: unknown) => boolean) => {
    const i = space.index.get(name) as number;
    return [i, space.dims[i].values.findIndex(ok)] as const;
  };
  const base = space.dims.map(() => 0);
  for (const [i, j] of [
    at(
      'env',
      (v) =>
        (v as EnvClass).environment !== undefined && (v as EnvClass).override !== undefined && !(v as EnvClass).names,
    ),
    at('team', (v) => v !== undefined),
  ])
    base[i] = j;
  const template = runOf(space, base, [set.bundle]);
  const now = template.now.getTime();
  const deniesWith = (state: StateFacts) =>
    terms.map(
      (t) =>
        !decide(t.bundle, template.payload, { ...template.facts, state }, template.now, { decisionId: 't' }).allowed,
    );

  const parts = ['running', 'started', 'ended'] as const;
  const classVectors = new Map<string, boolean[][]>();
  for (const part of parts) {
    const i = space.index.get(`${STATE}${part}`) as number;
    classVectors.set(
      part,
      space.dims[i].values.map((_, j) => {
        const a = [...base];
        a[i] = j;
        return deniesWith(runOf(space, a, [set.bundle]).facts.state as StateFacts);
      }),
    );
  }

  const MIN = 60_000;
  const age = fc.constantFrom(1, 29, 30, 31, 59, 60, 61, 119, 120, 121, 300, 1439, 1440, 1441).map((m) => m * MIN);
  const run = fc.record({
    own: fc.boolean(),
    age,
    state: fc.constantFrom<EndState>('COMPLETED', 'FAILED', 'ERRORED', 'CANCELED'),
  });
  const list = (withState: boolean) =>
    fc.array(run, { maxLength: 6 }).map((rs) =>
      rs
        .map(
          (r, k): RunRef => ({
            id: r.own ? '1' : `r${k}`,
            atMs: now - r.age,
            ...(withState ? { state: r.state } : {}),
          }),
        )
        .sort((x, y) => x.atMs - y.atMs),
    );
  const e = template.payload.execution;
  const keys = [
    `environment:${e.environment?.toLowerCase()}`,
    `environment:${e.overrides?.environment?.toLowerCase()}`,
    `team:${e.teamKey?.toLowerCase()}`,
  ];

  it.each(parts)('%s', (part) => {
    const i = space.index.get(`${STATE}${part}`) as number;
    expect(space.dims[i].complete).toBe(true);
    fc.assert(
      fc.property(fc.tuple(list(part === 'ended'), list(part === 'ended'), list(part === 'ended')), (lists) => {
        const state: StateFacts = {
          ...template.facts.state,
          [part]: Object.fromEntries(keys.map((k, j) => [k, lists[j]])),
        };
        expect(classVectors.get(part)).toContainEqual(deniesWith(state));
      }),
      { numRuns: 300, seed: 47 },
    );
  });
});
