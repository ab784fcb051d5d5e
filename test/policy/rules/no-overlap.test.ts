import { decide as decideRun } from '../../../src/policy/engine/decide';
import type { PreflightPayload } from '../../../src/payload/types';
import type { InProgressFacts } from '../../../src/policy/facts/state-facts';
import { readStateFacts } from '../../../src/policy/facts/read-facts';
import { bundleFrom } from '../../helpers/bundle-from';
import { attacking, HOST, hostTarget } from '../../helpers/runs-on-targets';
import { preflightWith } from '../../helpers/fixtures';

const NOW = new Date('2026-01-05T10:00:00Z');
const policy = (rule: string) => ({ 'p.yaml': `kind: Policy\nname: one-per-host\nrules:\n  - ${rule}\n` });
const target = hostTarget;
/** Execution 1 of team ADM attacking these targets. */
const run = attacking;
const facts = (part: Partial<InProgressFacts>): InProgressFacts => ({
  runs: {
    '9': { experimentKey: 'OPS-12', team: 'OPS', since: '2026-01-05T09:55:00.000Z' },
    '1': { experimentKey: 'ADM-1', team: 'ADM', since: '2026-01-05T09:59:00.000Z' },
  },
  targets: {},
  attributes: {},
  ...part,
});
const decide = (rule: string, payload: PreflightPayload, inProgress: InProgressFacts | undefined) =>
  decideRun(bundleFrom(policy(rule)), payload, { state: inProgress && { inProgress } }, NOW, { decisionId: 'd-1' });
const messageOf = (d: ReturnType<typeof decide>) => (d.allowed ? undefined : d.message);

describe('noOverlap: no run on targets a run in progress holds', () => {
  test('the same target in progress in another team denies, naming the run, its team and the target', () => {
    const d = decide('noOverlap: {}', run([target('web-1')]), facts({ targets: { [`${HOST}/web-1`]: ['9'] } }));
    expect(messageOf(d)).toContain(
      `a run in progress shares targets with this run: run 9 (experiment OPS-12, team OPS, since 2026-01-05T09:55:00.000Z) on target ${HOST}/web-1`,
    );
  });

  test('the same host by attribute denies; a host only the other run has does not', () => {
    const rule = 'noOverlap: {by: [host.hostname, k8s.node.name]}';
    const mine = run([target('c-1', { 'host.hostname': 'node-a' }), target('c-2', { 'k8s.node.name': 'n-7' })]);
    const inProgress = facts({
      attributes: { 'host.hostname': { 'node-a': ['9'] }, 'k8s.node.name': { 'n-7': ['9'] } },
    });
    expect(messageOf(decide(rule, mine, inProgress))).toContain(
      'run 9 (experiment OPS-12, team OPS, since 2026-01-05T09:55:00.000Z) on host.hostname=node-a, k8s.node.name=n-7',
    );
    const elsewhere = facts({ attributes: { 'host.hostname': { 'node-b': ['9'] } } });
    expect(decide(rule, mine, elsewhere).allowed).toBe(true);
  });

  test('an attribute key the rule does not choose is no overlap', () => {
    const mine = run([target('c-1', { 'host.hostname': 'node-a' })]);
    const inProgress = facts({ attributes: { 'host.hostname': { 'node-a': ['9'] } } });
    expect(decide('noOverlap: {by: [k8s.zone]}', mine, inProgress).allowed).toBe(true);
  });

  test('the run being decided never counts against itself', () => {
    const d = decide('noOverlap: {}', run([target('web-1')]), facts({ targets: { [`${HOST}/web-1`]: ['1'] } }));
    expect(d.allowed).toBe(true);
  });

  test('without the runs in progress the rule cannot decide: it denies', () => {
    expect(messageOf(decide('noOverlap: {}', run([target('web-1')]), undefined))).toContain(
      'cannot decide: the runs in progress state was not loaded',
    );
  });

  test('a step that does not list all its targets cannot be ruled out: it denies', () => {
    const d = decide(
      'noOverlap: {}',
      run([target('web-1')], (p) => {
        const step = p.execution.steps?.[1];
        if (step) step.totalTargetCount = 3;
      }),
      facts({}),
    );
    expect(messageOf(d)).toContain('lists 1 of its 3 targets, so what it shares with runs in progress is not known');
  });

  test('many shared targets and runs are listed up to a bound', () => {
    const names = Array.from({ length: 8 }, (_, i) => `web-${i}`);
    const others = Array.from({ length: 7 }, (_, i) => String(100 + i));
    const inProgress: InProgressFacts = {
      runs: Object.fromEntries(others.map((id) => [id, { team: 'OPS' }])),
      targets: Object.fromEntries(names.map((n) => [`${HOST}/${n}`, others])),
      attributes: {},
    };
    const d = decide('noOverlap: {}', run(names.map((n) => target(n))), inProgress);
    const message = messageOf(d) ?? '';
    expect(message).toContain(
      `7 runs in progress share targets with this run: run 100 (team OPS) on target ${HOST}/web-0, target ${HOST}/web-1, target ${HOST}/web-2, and 5 more; run 101 (team OPS) on`,
    );
    expect(message).toContain('; and 4 more runs');
    expect(message).not.toContain('run 103 (');
  });

  test('a key on Object.prototype is no run in progress', () => {
    const d = decide(
      'noOverlap: {by: [constructor]}',
      run([target('constructor', { constructor: 'toString' })]),
      facts({}),
    );
    expect(d.allowed).toBe(true);
  });
});

describe('the inProgress state facts (eval --state, suites)', () => {
  test('are read and checked: an id not described in runs is named by its path', () => {
    expect(readStateFacts({ inProgress: facts({ targets: { [`${HOST}/web-1`]: ['9'] } }) }).ok).toBe(true);
    const read = readStateFacts({ inProgress: { runs: {}, targets: { 'h/web-1': ['9'] }, attributes: {} } });
    expect(read).toEqual({
      ok: false,
      errors: [{ path: expect.stringContaining('inProgress'), message: 'run 9 is not described in inProgress.runs' }],
    });
    expect(readStateFacts({ inProgress: { runs: {} } }).ok).toBe(false);
  });
});

describe('noOverlap in a policy scoped to some steps: only those steps are compared and must list their targets', () => {
  const STOP = 'com.steadybit.extension_container.stop';
  const SHUTDOWN = 'com.steadybit.extension_host.shutdown';
  const scoped = (rule: string) => ({
    'p.yaml': `kind: Policy\nname: stops-apart\nmatch: { actionIds: [${STOP}] }\nrules:\n  - ${rule}\n`,
  });
  /** A stop listing web-1, and a shutdown of a host: listed (db-1) or expecting one it does not list. */
  const twoSteps = (shutdownListed: boolean) =>
    preflightWith((p) => {
      p.execution.steps = [
        { actionId: STOP, actionKind: 'ATTACK', totalTargetCount: 1, targetExecutions: [target('web-1')] },
        shutdownListed
          ? { actionId: SHUTDOWN, actionKind: 'ATTACK', totalTargetCount: 1, targetExecutions: [target('db-1')] }
          : { actionId: SHUTDOWN, actionKind: 'ATTACK', totalTargetCount: 1 },
      ] as never;
    });
  const decideScoped = (payload: PreflightPayload, inProgress: InProgressFacts) =>
    decideRun(bundleFrom(scoped('noOverlap: {}')), payload, { state: { inProgress } }, NOW, { decisionId: 'd-1' });

  test('a step outside the scope that does not list its targets: allowed', () => {
    expect(decideScoped(twoSteps(false), facts({})).allowed).toBe(true);
    // Unscoped, the same run cannot be decided.
    expect(messageOf(decide('noOverlap: {}', twoSteps(false), facts({})))).toMatch(/cannot decide: step .*steps\[1\]/);
  });

  test("a run in progress on a target of a step outside the scope: allowed; on the scoped step's target: denied", () => {
    expect(decideScoped(twoSteps(true), facts({ targets: { [`${HOST}/db-1`]: ['9'] } })).allowed).toBe(true);
    expect(decideScoped(twoSteps(true), facts({ targets: { [`${HOST}/web-1`]: ['9'] } })).allowed).toBe(false);
  });
});
