import type { Witness } from '../../src/prove/analysis';

import type { RunRef } from '../../src/policy/facts/state-facts';
import { diffPairs, evalWitness, NOW, setDirs, proveDir } from './prove-sets';

/** The runs the witness's state lists under one of its scopes (`environment:<value>`, `team:<key>`). */
function runsUnder(w: Witness, part: 'running' | 'started' | 'ended', per: 'environment' | 'team'): RunRef[] {
  const e = w.payload.execution;
  const value = per === 'team' ? e.teamKey : (e.environment ?? e.overrides?.environment);
  return w.facts.state[part]?.[`${per}:${String(value).toLowerCase()}`] ?? [];
}
const ageMs = (w: Witness, r: RunRef) => Date.parse(w.now) - r.atMs;
const HOUR = 3_600_000;

describe('diff over the state concurrency, quota and cooldown rules read', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);
  const policy = (name: string, rule: string) => `kind: Policy
name: ${name}
rules:
  - ${rule}
`;

  it('a concurrency max raised: newly allowed with as many runs in progress as the old max', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('one-at-a-time', 'concurrency: { maxRunning: 1 }') },
      { 'p.yaml': policy('one-at-a-time', 'concurrency: { maxRunning: 3 }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const running = runsUnder(r.witnesses[0], 'running', 'environment').length;
    expect(running).toBeGreaterThanOrEqual(1);
    expect(running).toBeLessThan(3);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('a quota raised: newly allowed with as many runs started in the window as the old quota', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('daily', 'quota: { maxRuns: 2, window: 1d }') },
      { 'p.yaml': policy('daily', 'quota: { maxRuns: 5, window: 1d }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const inWindow = runsUnder(w, 'started', 'team').filter((x) => ageMs(w, x) <= 24 * HOUR).length;
    expect(inWindow).toBeGreaterThanOrEqual(2);
    expect(inWindow).toBeLessThan(5);
    await roundTrip(b, p, w);
  });

  it('a cooldown shortened: newly allowed after a failed run that ended between the two durations', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('calm', 'cooldown: { duration: 2h }') },
      { 'p.yaml': policy('calm', 'cooldown: { duration: 30m }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const ended = runsUnder(w, 'ended', 'environment');
    expect(ended.length).toBeGreaterThan(0);
    for (const x of ended) {
      expect(['FAILED', 'ERRORED']).toContain(x.state);
      expect(ageMs(w, x)).toBeGreaterThanOrEqual(HOUR / 2);
      expect(ageMs(w, x)).toBeLessThan(2 * HOUR);
    }
    await roundTrip(b, p, w);
  });

  it('a cooldown after CANCELED too: newly denied only for a canceled run, the failed ones cooling alike', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('calm', 'cooldown: { duration: 1h }') },
      { 'p.yaml': policy('calm', 'cooldown: { duration: 1h, after: [FAILED, ERRORED, CANCELED] }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const w = r.witnesses[0];
    const cooling = runsUnder(w, 'ended', 'environment').filter((x) => ageMs(w, x) < HOUR);
    expect(cooling.map((x) => x.state)).toEqual(['CANCELED']);
    await roundTrip(b, p, w);
  });

  it('several rules on the same state: one state the witness gives satisfies every class it stands for', async () => {
    // Quota per team in an hour and in a day, concurrency per environment and per team.
    const rules = (hourly: number) => `kind: Policy
name: limits
rules:
  - quota: { maxRuns: ${hourly}, window: 1h }
  - quota: { maxRuns: 4, window: 1d }
  - concurrency: { maxRunning: 2 }
  - concurrency: { maxRunning: 1, per: team }
`;
    const { b, p, r } = pair({ 'p.yaml': rules(1) }, { 'p.yaml': rules(3) });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const started = runsUnder(w, 'started', 'team');
    const lastHour = started.filter((x) => ageMs(w, x) <= HOUR).length;
    expect(lastHour).toBeGreaterThanOrEqual(1);
    expect(lastHour).toBeLessThan(3);
    expect(started.filter((x) => ageMs(w, x) <= 24 * HOUR).length).toBeLessThan(4);
    expect(runsUnder(w, 'running', 'environment').length).toBeLessThan(2);
    expect(runsUnder(w, 'running', 'team').length).toBeLessThan(1);
    await roundTrip(b, p, w);
  });

  it('a noOverlap rule added: newly denied for a step that does not list its targets', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('apart', 'concurrency: { maxRunning: 5 }') },
      { 'p.yaml': `${policy('apart', 'concurrency: { maxRunning: 5 }')}  - noOverlap: {}\n` },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => [w.kind, w.proposed?.message])).toEqual([
      [
        'newly-denied',
        expect.stringMatching(/lists 0 of its 1 targets, so what it shares with runs in progress is not known/),
      ],
    ]);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('a noOverlap rule added where targets are listed anyway: newly denied beside a run in progress on the same target', async () => {
    // The base denies a run whose targets are not all listed (it cannot see their namespaces).
    const namespaces = 'targetAttributes: { forbid: { k8s.namespace: [kube-system] } }';
    const { b, p, r } = pair(
      { 'p.yaml': policy('apart', namespaces) },
      { 'p.yaml': `${policy('apart', namespaces)}  - noOverlap: {}\n` },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const w = r.witnesses[0];
    const listed = (w.payload.execution.steps ?? []).flatMap((s) =>
      (s.targetExecutions ?? []).map((t) => `${t.type ?? ''}/${t.name}`),
    );
    const inProgress = w.facts.state.inProgress;
    expect(Object.keys(inProgress?.targets ?? {})).toEqual(listed.slice(0, 1));
    expect(Object.keys(inProgress?.runs ?? {})).toHaveLength(1);
    expect(w.proposed?.message).toMatch(/a run in progress shares targets with this run/);
    await roundTrip(b, p, w);
  });

  it('a noOverlap rule removed: newly allowed, each witness decided so by eval', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': `${policy('apart', 'concurrency: { maxRunning: 1 }')}  - noOverlap: { by: [host.hostname] }\n` },
      { 'p.yaml': policy('apart', 'concurrency: { maxRunning: 1 }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.length).toBeGreaterThan(0);
    expect(r.witnesses.every((w) => w.kind === 'newly-allowed')).toBe(true);
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('a by key removed: newly allowed beside a run on the same host only, not on the same targets', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('apart', 'noOverlap: { by: [host.hostname, k8s.zone] }') },
      { 'p.yaml': policy('apart', 'noOverlap: { by: [k8s.zone] }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const inProgress = w.facts.state.inProgress;
    expect(inProgress?.targets).toEqual({});
    expect(Object.keys(inProgress?.attributes ?? {})).toEqual(['host.hostname']);
    const [value] = Object.keys(inProgress?.attributes['host.hostname'] ?? {});
    const carried = (w.payload.execution.steps ?? []).flatMap((s) =>
      (s.targetExecutions ?? []).flatMap((t) =>
        (t.attributes ?? []).filter((a) => a.key === 'host.hostname').map((a) => a.value),
      ),
    );
    expect(carried).toContain(value);
    await roundTrip(b, p, w);
  });

  it('noOverlap in a policy scoped to stops: an exception widened to shutdowns changes no run of one step, and eval agrees on two', async () => {
    // Independent review: the rule read every step of the run, so a shutdown the policy does not
    // cover, listing no targets, denied a two-step run that neither of its steps alone was denied.
    const STOP = 'com.steadybit.extension_container.stop';
    const SHUTDOWN = 'com.steadybit.extension_host.shutdown';
    const files = (waived: string) => ({
      'p.yaml': `kind: Policy\nname: overlap\nmatch: { actionIds: [${STOP}] }\nrules:\n  - noOverlap: {}\n`,
      'e.yaml': `kind: Exception\nname: waived\npolicy: overlap\nowner: a@example.com\nreason: test\nexpires: "2099-12-31T00:00:00Z"\nmatch: { actionIds: [${waived}] }\n`,
    });
    const { b, p, r } = pair(files(STOP), files(`${STOP}, ${SHUTDOWN}`));
    // No witness; runs of several steps are left unknown (one exception scoped to steps beside a
    // finding that names no step: the case below), though here every step in scope is a stop.
    expect(r.witnesses).toEqual([]);
    expect(r.unknown).toEqual([
      expect.stringMatching(/^runs of two or more action steps where overlap rules\[0\]\.noOverlap decides/),
    ]);
    const twoSteps = {
      kind: 'newly-allowed' as const,
      now: NOW.toISOString(),
      payload: {
        event: 'experiment.execution.preflight',
        execution: {
          id: 1,
          experimentKey: 'ADM-1',
          teamKey: 'ADM',
          environment: 'staging',
          steps: [
            { actionId: STOP, actionKind: 'ATTACK', totalTargetCount: 1, targetExecutions: [{ name: 'c1' }] },
            { actionId: SHUTDOWN, actionKind: 'ATTACK', totalTargetCount: 1 },
          ],
        },
      },
      facts: {
        state: { emergencyStop: { engaged: false }, inProgress: { runs: {}, targets: {}, attributes: {} } },
        signals: {},
        teams: {},
      },
    } as unknown as Witness;
    expect([await evalWitness(b, twoSteps), await evalWitness(p, twoSteps)]).toEqual([true, true]);
  });

  it.each([
    [
      'noOverlap: {}',
      /overlap rules\[0\]\.noOverlap decides: its finding \(a run in progress sharing targets\) names no step, and exception "stops-ok"/,
    ],
    [
      'cooldown: { duration: 1h, per: service }',
      /overlap rules\[0\]\.cooldown decides: its finding \(a service cooling down\) names no step, and exception "stops-ok"/,
    ],
  ])(
    '%s with one exception scoped to steps replaced by an exclude: unknown for runs of several steps, not "no difference"',
    (rule, said) => {
      // Independent review: a stop sharing a target beside a shutdown; the exception waives the stop
      // alone but not the run, the exclude leaves the shutdown, which shares nothing.
      const STOP = 'com.steadybit.extension_container.stop';
      const { r } = pair(
        {
          'p.yaml': `kind: Policy\nname: overlap\nrules:\n  - ${rule}\n`,
          'e.yaml': `kind: Exception\nname: stops-ok\npolicy: overlap\nowner: a@example.com\nreason: test\nexpires: "2099-12-31T00:00:00Z"\nmatch: { actionIds: [${STOP}] }\n`,
        },
        { 'p.yaml': `kind: Policy\nname: overlap\nexclude: { actionIds: [${STOP}] }\nrules:\n  - ${rule}\n` },
      );
      expect(r.unknown.join('\n')).toMatch(said);
    },
  );

  it('the same noOverlap rule: no run decided differently', () => {
    const rule = policy('apart', 'noOverlap: { by: [host.hostname] }');
    const { r } = pair({ 'p.yaml': rule }, { 'p.yaml': rule });
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  /** The runs the witness's state lists under the service its targets name by `by`. */
  const endedOnService = (w: Witness, by = 'k8s.deployment') => {
    const values = (w.payload.execution.steps ?? []).flatMap((s) =>
      (s.targetExecutions ?? []).flatMap((t) => (t.attributes ?? []).filter((x) => x.key === by).map((x) => x.value)),
    );
    return values.flatMap((v) => w.facts.state.ended?.[`service:${by}=${v}`.toLowerCase()] ?? []);
  };

  it('a cooldown per service shortened: newly allowed after a failed run on the service the run attacks', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('calm', 'cooldown: { duration: 2h, per: service }') },
      { 'p.yaml': policy('calm', 'cooldown: { duration: 30m, per: service }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const ended = endedOnService(w);
    expect(ended.length).toBeGreaterThan(0);
    for (const x of ended) {
      expect(ageMs(w, x)).toBeGreaterThanOrEqual(HOUR / 2);
      expect(ageMs(w, x)).toBeLessThan(2 * HOUR);
    }
    await roundTrip(b, p, w);
  });

  it('whenMissing deny to allow: newly allowed for targets that name no service or are not all listed, nothing else', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('calm', 'cooldown: { duration: 1h, per: service, by: k8s.service.name }') },
      {
        'p.yaml': policy('calm', 'cooldown: { duration: 1h, per: service, by: k8s.service.name, whenMissing: allow }'),
      },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].base?.message).toMatch(/cannot decide/);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('per environment to per service: newly allowed and newly denied, each decided so by eval', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy('calm', 'cooldown: { duration: 1h }') },
      { 'p.yaml': policy('calm', 'cooldown: { duration: 1h, per: service }') },
    );
    expect(r.unknown).toEqual([]);
    expect(new Set(r.witnesses.map((w) => w.kind))).toEqual(new Set(['newly-allowed', 'newly-denied']));
    const denied = r.witnesses.filter((w) => w.kind === 'newly-denied');
    expect(denied.some((w) => endedOnService(w).length > 0 || /cannot decide/.test(w.proposed?.message ?? ''))).toBe(
      true,
    );
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('a cooldown until recovered is beyond the analysis: unknown, naming the rule', () => {
    const until = (d: string) =>
      policy(
        'calm',
        `cooldown: { duration: ${d}, until: [{ prometheus: { query: 'up{job="api"}', recoveredWhen: ">= 1" } }] }`,
      );
    const { r } = pair({ 'p.yaml': until('1h') }, { 'p.yaml': until('30m') });
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(/calm rules\[0\]\.cooldown changed and is beyond the analysis: .*until/);
  });
});

describe('prove over the state', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const prove = (maxRunning: number) => {
    const dir = dirs.write({
      'p.yaml': `kind: Policy
name: one-at-a-time
rules:
  - concurrency: { maxRunning: ${maxRunning} }
`,
      'p.property.yaml': `kind: PolicyProperty
name: never-three-at-once
never:
  rules:
    - concurrency: { maxRunning: 3 }
`,
    });
    const [result] = proveDir(dir);
    return { dir, result };
  };

  it('never a fourth run in an environment: proven by a set allowing at most two', () => {
    expect(prove(2).result).toMatchObject({ status: 'proven' });
  });

  it('a set allowing five: a counterexample with three or four in progress, decided by eval', async () => {
    const { dir, result } = prove(5);
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    const running = runsUnder(w, 'running', 'environment').length;
    expect(running).toBeGreaterThanOrEqual(3);
    expect(running).toBeLessThan(5);
    expect(await evalWitness(dir, w)).toBe(true);
  });
});

describe('prove over the runs in progress', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const prove = (rule: string, property = 'noOverlap: {}') => {
    const dir = dirs.write({
      'p.yaml': `kind: Policy\nname: apart\nrules:\n  - ${rule}\n`,
      'p.property.yaml': `kind: PolicyProperty
name: never-beside-a-run-on-its-targets
never:
  rules:
    - ${property}
`,
    });
    const [result] = proveDir(dir);
    return { dir, result };
  };

  it('never beside a run on its targets: proven by a set comparing by host too', () => {
    expect(prove('noOverlap: { by: [host.hostname] }').result).toMatchObject({ status: 'proven' });
  });

  it('never beside a run on the same host: a set comparing targets alone has a counterexample sharing only the host', async () => {
    const { dir, result } = prove('noOverlap: {}', 'noOverlap: { by: [host.hostname] }');
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect(w.facts.state.inProgress?.targets).toEqual({});
    expect(Object.keys(w.facts.state.inProgress?.attributes['host.hostname'] ?? {})).toHaveLength(1);
    expect(await evalWitness(dir, w)).toBe(true);
  });

  it('a set with a concurrency cap instead: a counterexample, decided by eval', async () => {
    const { dir, result } = prove('concurrency: { maxRunning: 5 }');
    expect(result.status).toBe('counterexample');
    expect(await evalWitness(dir, result.witness as Witness)).toBe(true);
  });
});
