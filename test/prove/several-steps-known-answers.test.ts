import type { PolicyBundle } from '../../src/policy/core/compiled';
import { decide } from '../../src/policy/engine/decide';
import { diffSets, type Witness } from '../../src/prove/analysis';

import { NOW, setDirs, setOf, proveDir } from './prove-sets';

/**
 * Pairs of sets that differ only on runs of two or more action steps (docs/decisions/0027-runs-of-several-steps.md):
 * a total across steps is found with a witness of several steps, checked here again by both whole
 * sets; exceptions scoped to steps are answered unknown, naming why, never "no difference".
 */
describe('runs of several action steps: known answers', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = (base: string, proposed: string) =>
    diffSets(setOf(dirs.write({ 'p.yaml': base })), setOf(dirs.write({ 'p.yaml': proposed })), NOW);

  const caps = (caps: string) => `kind: Policy
name: unattended
match: { createdVia: [SCHEDULE] }
rules:
  - targets: { ${caps} }
`;
  const decided = (bundle: PolicyBundle, w: Witness) =>
    decide(bundle, w.payload, { state: w.facts.state, signals: {}, teams: w.facts.teams }, new Date(w.now), {
      decisionId: 't',
    }).allowed;
  const total = (w: Witness) => (w.payload.execution.steps ?? []).reduce((n, s) => n + (s.totalTargetCount ?? 0), 0);

  it.each([
    ['a total raised', 'maxPerStep: 10, maxTotal: 30', 'maxPerStep: 10, maxTotal: 40'],
    ['a total removed', 'maxPerStep: 10, maxTotal: 30', 'maxPerStep: 10'],
  ])('%s: newly allowed, with a witness of several steps both whole sets decide', (_name, before, after) => {
    const base = setOf(dirs.write({ 'p.yaml': caps(before) }));
    const proposed = setOf(dirs.write({ 'p.yaml': caps(after) }));
    const r = diffSets(base, proposed, NOW);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const [w] = r.witnesses;
    const steps = w.payload.execution.steps ?? [];
    expect(steps.length).toBeGreaterThanOrEqual(2);
    for (const s of steps) expect(s.totalTargetCount).toBeLessThanOrEqual(10);
    expect(total(w)).toBeGreaterThan(30);
    expect(w.payload.execution.createdVia).toBe('SCHEDULE');
    expect([decided(base.bundle, w), decided(proposed.bundle, w)]).toEqual([false, true]);
    expect(w.class).toMatch(/unattended rules\[0\]\.targets denies: \d+ steps, each /);
    // Other runs of several steps may differ too: that is not claimed (said once, the rule changed on both sides).
    expect(r.unknown).toHaveLength(1);
    expect(r.unknown.join('\n')).toMatch(
      /runs of two or more action steps where unattended rules\[0\]\.targets decides: its maxTotal sums/,
    );
  });

  it('a total lowered: newly denied, with a witness of several steps', () => {
    const r = diff(caps('maxPerStep: 10, maxTotal: 40'), caps('maxPerStep: 10, maxTotal: 30'));
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    expect(total(r.witnesses[0])).toBeGreaterThan(30);
    expect(total(r.witnesses[0])).toBeLessThanOrEqual(40);
  });

  const noAttacks = (exceptions: Array<[string, string]>) =>
    [
      'kind: Policy\nname: no-attacks\nrules:\n  - actions: { blockedKinds: [ATTACK] }\n',
      ...exceptions.map(
        ([name, ids]) => `kind: Exception
name: ${name}
policy: no-attacks
owner: sre@example.com
reason: CHG-1
expires: "2027-01-01T00:00:00Z"
match: { actionIds: [${ids}] }
`,
      ),
    ].join('---\n');

  it('two exceptions scoped to steps made one: alike on every one-step run, newly allowed with a witness of two steps', () => {
    const base = setOf(
      dirs.write({
        'p.yaml': noAttacks([
          ['pods', '"pod-*"'],
          ['nodes', '"node-*"'],
        ]),
      }),
    );
    const proposed = setOf(dirs.write({ 'p.yaml': noAttacks([['both', '"pod-*", "node-*"']]) }));
    const r = diffSets(base, proposed, NOW);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const [w] = r.witnesses;
    const ids = (w.payload.execution.steps ?? []).map((s) => s.actionId?.toLowerCase() ?? '');
    expect(ids).toHaveLength(2);
    expect(ids.some((id) => id.startsWith('pod-')) && ids.some((id) => id.startsWith('node-'))).toBe(true);
    expect([decided(base.bundle, w), decided(proposed.bundle, w)]).toEqual([false, true]);
    expect(w.class).toMatch(/denies: 2 steps: /);
    // Not a proof for other runs of several steps: said as unknown, naming the exceptions.
    expect(r.unknown.join('\n')).toMatch(
      /runs of two or more action steps where no-attacks rules\[0\]\.actions decides: exceptions "pods", "nodes" each match only some steps/,
    );
    // Each step alone is decided alike: the one-step search alone could not have found it.
    const alone = (id: string) => ({
      event: 'experiment.execution.preflight',
      execution: { id: 1, steps: [{ actionId: id, actionKind: 'ATTACK' }] },
    });
    const facts = { state: { emergencyStop: { engaged: false } }, signals: {}, teams: {} };
    for (const id of ['pod-kill', 'node-drain'])
      for (const b of [base.bundle, proposed.bundle])
        expect(decide(b, alone(id) as never, facts, NOW, { decisionId: 't' }).allowed).toBe(true);
  });

  it('one exception scoped to steps split in two: newly denied, with a witness of two steps', () => {
    const r = diff(
      noAttacks([['both', '"pod-*", "node-*"']]),
      noAttacks([
        ['pods', '"pod-*"'],
        ['nodes', '"node-*"'],
      ]),
    );
    expect(r.witnesses.map((w) => [w.kind, w.payload.execution.steps?.length])).toEqual([['newly-denied', 2]]);
  });

  it('sets that are the same, totals and step-scoped exceptions included: nothing unknown', () => {
    const text = `${caps('maxPerStep: 10, maxTotal: 30')}---\n${noAttacks([
      ['pods', '"pod-*"'],
      ['nodes', '"node-*"'],
    ])}`;
    const r = diff(text, text);
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  const property = (rules: string) => `kind: PolicyProperty
name: at-most-30
never:
  rules:
    - targets: { ${rules} }
`;
  const prove = (policies: string, rules: string) => {
    const dir = dirs.write({ 'p.yaml': policies, 'x.property.yaml': property(rules) });
    return proveDir(dir)[0];
  };

  it('a property a run of several steps breaks: a counterexample of several steps, never proven', () => {
    const r = prove(caps('maxPerStep: 10').replace('match: { createdVia: [SCHEDULE] }\n', ''), 'maxTotal: 30');
    expect(r.status).toBe('counterexample');
    const w = r.witness as Witness;
    expect(w.payload.execution.steps?.length).toBeGreaterThanOrEqual(2);
    expect(total(w)).toBeGreaterThan(30);
    expect(w.answer?.allowed).toBe(true);
  });

  it('a property only a total keeps: unknown for runs of several steps, never proven', () => {
    const r = prove(
      caps('maxPerStep: 10, maxTotal: 30').replace('match: { createdVia: [SCHEDULE] }\n', ''),
      'maxTotal: 30',
    );
    expect(r.status).toBe('unknown');
    expect(r.reason).toMatch(/runs of two or more action steps where the property's .*targets decides: its maxTotal/);
  });
});
