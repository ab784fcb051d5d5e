import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import { formatProblem } from '../../src/policy/compile/load-error';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { guardView } from '../../src/guard/guard-view';
import { judgeRunningRun } from '../../src/guard/judge-running-run';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { bundleFrom } from '../helpers/bundle-from';
import { problemsOf } from '../helpers/decide-harness';
import { ROOT } from '../helpers/server-process';
import { archiveInMemory, checkedRecord, guardUnderTest, TestClock } from './guard-harness';
import type { GuardReport } from '../../src/guard/guard-stop';
import { signalSilentNotification } from '../../src/notify/event-notifications';
import { redecide, replayBundle } from '../../src/replay/redecide';

const RUN = (): PreflightPayload =>
  JSON.parse(readFileSync(join(ROOT, 'examples', 'dead-man', 'run.json'), 'utf8')) as PreflightPayload;
const T0 = new Date('2026-01-05T10:00:00.000Z');
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** A guarded policy with one prometheus rule on the attacked deployments' traffic and the given deadMan. */
const policy = (deadMan = '{ after: 2m }', extra = '', whileRunning = 'whileRunning: true\n') =>
  `kind: Policy\nname: traffic-dead-man\n${whileRunning}rules:\n  - prometheus:\n      query: 'up{service="{{target.k8s.deployment}}"}'\n      denyWhen: "< 1"\n      deadMan: ${deadMan}\n${extra}`;

const query = (service: string) => `up{service="${service}"}`;
const up = (_service: string) => ({
  resultType: 'vector' as const,
  result: [{ metric: {}, value: [0, '1'] as [number, string] }],
});
const empty = { resultType: 'vector' as const, result: [] };
/** Prometheus answering for checkout, with no data for cart (or an error for both). */
const cartSilent: SignalFacts = {
  prometheus: { default: { [query('checkout')]: up('checkout'), [query('cart')]: empty } },
};
const allUp: SignalFacts = {
  prometheus: { default: { [query('checkout')]: up('checkout'), [query('cart')]: up('cart') } },
};
const away: SignalFacts = {
  prometheus: {
    default: {
      [query('checkout')]: { error: 'connect ECONNREFUSED 127.0.0.1:9090' },
      [query('cart')]: { error: 'connect ECONNREFUSED 127.0.0.1:9090' },
    },
  },
};

describe('deadMan: what a policy may write', () => {
  test.each([
    ['{ after: 2m }', { afterMs: 120_000, then: 'stop' }],
    ['{ after: 90s, then: report }', { afterMs: 90_000, then: 'report' }],
  ])('deadMan: %s loads', (deadMan) => {
    expect(problemsOf(policy(deadMan))).toEqual([]);
  });

  test.each([
    [
      '{ after: 500ms }',
      /rules\[0\]\.prometheus\.deadMan\.after: deadMan\.after must be at least 1s and at most 1d, got "500ms"/,
    ],
    ['{ after: 2d }', /deadMan\.after must be at least 1s and at most 1d, got "2d"/],
    ['{ after: soon }', /rules\[0\]\.prometheus\.deadMan\.after/],
    ['{ after: 2m, then: cancel }', /rules\[0\]\.prometheus\.deadMan\.then/],
    ['{ then: stop }', /deadMan.*after/],
    ['{ after: 2m, every: 5s }', /every/],
  ])('deadMan: %s is a load error naming the field', (deadMan, message) => {
    expect(problemsOf(policy(deadMan)).map(formatProblem).join('\n')).toMatch(message);
  });

  test('with onUnavailable: allow it contradicts itself: a load error at onUnavailable', () => {
    expect(problemsOf(policy('{ after: 2m }', '      onUnavailable: allow\n')).map(formatProblem)).toEqual([
      expect.stringMatching(
        /rules\[0\]\.prometheus\.onUnavailable: deadMan asks the signal to keep answering, onUnavailable: allow lets a source that cannot answer through/,
      ),
    ]);
  });

  test('with onEmpty it says what no data means twice: a load error at onEmpty', () => {
    expect(problemsOf(policy('{ after: 2m }', '      onEmpty: deny\n')).map(formatProblem)).toEqual([
      expect.stringMatching(/rules\[0\]\.prometheus\.onEmpty: deadMan decides what no data means/),
    ]);
  });

  test('on a policy that does not guard runs it would never act: a load error that says whileRunning', () => {
    expect(problemsOf(policy('{ after: 2m }', '', '')).map(formatProblem)).toEqual([
      expect.stringMatching(
        /^policies\/p\.yaml:\d+:\d+ rules\[0\]\.prometheus\.deadMan: deadMan watches a run while it is in progress: the policy needs whileRunning/,
      ),
    ]);
  });

  test('an alerts rule takes it too (its source must keep answering)', () => {
    const doc = `kind: Policy\nname: a\nwhileRunning: true\nrules:\n  - alerts: { matchers: ['severity="critical"'], deadMan: { after: 1m } }\n`;
    expect(problemsOf(doc)).toEqual([]);
  });
});

describe('deadMan: the decision, at the door and while running (injected time)', () => {
  const bundle = bundleFrom({ 'p.yaml': policy() }, T0);
  const view = guardView(bundle);

  test('at the door a run is denied while an attacked service has no data, naming it', () => {
    const decision = decide(bundle, RUN(), { signals: cartSilent }, T0, { decisionId: 'd' });
    expect(decision.allowed).toBe(false);
    expect(decision.message).toMatch(
      /\[traffic-dead-man\] dead man: query up\{service="cart"\} on prometheus "default" returned no samples; a run does not start while a signal it must keep answering is silent \(deadMan\)/,
    );
    expect(decide(bundle, RUN(), { signals: allUp }, T0, { decisionId: 'd' }).allowed).toBe(true);
  });

  test("the rule's reason is not said of a silent signal (it says what a value means; silence has none)", () => {
    const reasoned = bundleFrom({ 'p.yaml': policy('{ after: 2m }', '      reason: a deployment is down\n') }, T0);
    expect(decide(reasoned, RUN(), { signals: cartSilent }, T0, { decisionId: 'd' }).results[0].reasons).toEqual([
      'dead man: query up{service="cart"} on prometheus "default" returned no samples; a run does not start while a signal it must keep answering is silent (deadMan)',
    ]);
  });

  test('at the door a Prometheus that cannot answer denies as before', () => {
    expect(decide(bundle, RUN(), { signals: away }, T0, { decisionId: 'd' }).message).toMatch(
      /dead man: query up\{service="checkout"\} on prometheus "default" could not be read \(connect ECONNREFUSED/,
    );
  });

  test('while running, a silence counts from the first tick that finds it; after `after` the run is stopped', () => {
    const first = judgeRunningRun(view, RUN(), { signals: cartSilent }, T0, 'j1');
    expect(first.stop).toBe(false);
    expect(first.findings).toEqual([]);
    expect(first.silent).toEqual([
      { kind: 'prometheus', source: 'default', query: query('cart'), since: T0.toISOString() },
    ]);
    // The next ticks read what the first kept.
    const kept = { ...cartSilent, silentSince: first.silent };
    expect(judgeRunningRun(view, RUN(), { signals: kept }, at(119), 'j2').stop).toBe(false);
    const late = judgeRunningRun(view, RUN(), { signals: kept }, at(120), 'j3');
    expect(late.stop).toBe(true);
    expect(late.findings).toEqual([
      expect.objectContaining({
        policy: 'traffic-dead-man',
        action: 'stop',
        cannotJudge: false,
        deadMan: true,
        reason: `dead man: query up{service="cart"} on prometheus "default" has been silent since ${T0.toISOString()} (2m, deadMan.after 2m): returned no samples`,
      }),
    ]);
    expect(late.silent).toEqual(first.silent);
  });

  test('a source that cannot answer is silent too, and does not stop the run before `after` (onCannotJudge is not asked)', () => {
    const stopOnCannotJudge = guardView(
      bundleFrom({ 'p.yaml': policy().replace('whileRunning: true', 'whileRunning: { onCannotJudge: stop }') }, T0),
    );
    const first = judgeRunningRun(stopOnCannotJudge, RUN(), { signals: away }, T0, 'j1');
    expect(first.stop).toBe(false);
    expect(first.silent.map((s) => s.query)).toEqual([query('checkout'), query('cart')]);
    const late = judgeRunningRun(
      stopOnCannotJudge,
      RUN(),
      { signals: { ...away, silentSince: first.silent } },
      at(121),
      'j2',
    );
    expect(late.stop).toBe(true);
    expect(late.findings[0].reason).toMatch(/could not be read \(connect ECONNREFUSED 127\.0\.0\.1:9090\)/);
  });

  test('a signal that answers again is no longer silent', () => {
    const kept = {
      ...allUp,
      silentSince: [
        { kind: 'prometheus' as const, source: 'default', query: query('cart'), since: '2026-01-05T09:00:00.000Z' },
      ],
    };
    const judged = judgeRunningRun(view, RUN(), { signals: kept }, T0, 'j');
    expect(judged.stop).toBe(false);
    expect(judged.silent).toEqual([]);
  });

  test('then: report says it without stopping the run', () => {
    const reporting = guardView(bundleFrom({ 'p.yaml': policy('{ after: 2m, then: report }') }, T0));
    const kept = {
      ...cartSilent,
      silentSince: [{ kind: 'prometheus' as const, source: 'default', query: query('cart'), since: T0.toISOString() }],
    };
    const judged = judgeRunningRun(reporting, RUN(), { signals: kept }, at(600), 'j');
    expect(judged.stop).toBe(false);
    expect(judged.findings).toEqual([
      expect.objectContaining({ policy: 'traffic-dead-man', action: 'report', deadMan: true, cannotJudge: false }),
    ]);
    expect(judged.findings[0].reason).toMatch(
      /has been silent since 2026-01-05T10:00:00.000Z \(10m, deadMan\.after 2m\)/,
    );
  });
});

describe('deadMan on an alerts rule: its Alertmanager source must keep answering', () => {
  const alerts = bundleFrom(
    {
      'a.yaml': `kind: Policy\nname: alerts-dead-man\nwhileRunning: true\nrules:\n  - alerts: { matchers: ['severity="critical"'], deadMan: { after: 1m } }\n`,
    },
    T0,
  );
  const view = guardView(alerts);
  const down: SignalFacts = { alertmanager: { default: { error: 'connect ECONNREFUSED 127.0.0.1:9093' } } };

  test('no alert firing is an answer, not silence', () => {
    const quiet: SignalFacts = { alertmanager: { default: { alerts: [] } } };
    expect(decide(alerts, RUN(), { signals: quiet }, T0, { decisionId: 'd' }).allowed).toBe(true);
    expect(judgeRunningRun(view, RUN(), { signals: quiet }, T0, 'j').silent).toEqual([]);
  });

  test('Alertmanager away: denied at the door, silent while running, stopped after `after`', () => {
    expect(decide(alerts, RUN(), { signals: down }, T0, { decisionId: 'd' }).message).toMatch(
      /\[alerts-dead-man\] dead man: alertmanager "default" could not be read \(connect ECONNREFUSED/,
    );
    const first = judgeRunningRun(view, RUN(), { signals: down }, T0, 'j1');
    expect(first.stop).toBe(false);
    expect(first.silent).toEqual([{ kind: 'alertmanager', source: 'default', since: T0.toISOString() }]);
    const late = judgeRunningRun(view, RUN(), { signals: { ...down, silentSince: first.silent } }, at(60), 'j2');
    expect(late.stop).toBe(true);
    expect(late.findings[0].reason).toBe(
      `dead man: alertmanager "default" has been silent since ${T0.toISOString()} (1m, deadMan.after 1m): could not be read (connect ECONNREFUSED 127.0.0.1:9093)`,
    );
  });
});

describe('deadMan: the guard keeps since when, in its store', () => {
  const gatherFrom = (signals: { current: SignalFacts }) => async () => ({
    ok: true as const,
    facts: { signals: signals.current },
  });

  test('a tick keeps the silence, a later one past `after` acts on it, an answer again forgets it', async () => {
    const clock = new TestClock(T0);
    const signals = { current: cartSilent };
    const runs = new MemoryGuardStore(() => clock.now().getTime());
    const g = guardUnderTest(bundleFrom({ 'p.yaml': policy() }, T0), clock, { runs, gather: gatherFrom(signals) });
    g.allow(RUN());
    await g.guard.tick();
    expect(await runs.silences('42')).toEqual([
      { kind: 'prometheus', source: 'default', query: query('cart'), since: T0.toISOString() },
    ]);
    clock.set('2026-01-05T10:01:00Z');
    await g.guard.tick();
    expect(await runs.silences('42')).toEqual([expect.objectContaining({ since: T0.toISOString() })]);
    // No Platform API in this guard: the stop it would make is reported (cannot_stop).
    expect(await g.metric('preflight_guard_reports_total', { kind: 'cannot_stop' })).toBe(0);
    clock.set('2026-01-05T10:02:00Z');
    await g.guard.tick();
    expect(await g.metric('preflight_guard_reports_total', { policy: 'traffic-dead-man', kind: 'cannot_stop' })).toBe(
      1,
    );
    expect(g.logs.join('\n')).toMatch(/has been silent since 2026-01-05T10:00:00.000Z/);
    signals.current = allUp;
    await g.guard.tick();
    expect(await runs.silences('42')).toEqual([]);
  });

  test('then: report counts kind="dead_man" and logs it, once per run and policy', async () => {
    const clock = new TestClock(T0);
    const g = guardUnderTest(bundleFrom({ 'p.yaml': policy('{ after: 1m, then: report }') }, T0), clock, {
      gather: gatherFrom({ current: cartSilent }),
    });
    g.allow(RUN());
    await g.guard.tick();
    clock.set('2026-01-05T10:01:00Z');
    await g.guard.tick();
    clock.set('2026-01-05T10:02:00Z');
    await g.guard.tick();
    expect(await g.metric('preflight_guard_reports_total', { policy: 'traffic-dead-man', kind: 'dead_man' })).toBe(1);
    expect(g.logs.filter((l) => l.includes('deadMan then: report'))).toEqual([
      expect.stringMatching(
        /^guard: policy "traffic-dead-man" finds a signal of run 42 silent too long; it goes on \(deadMan then: report\): dead man: query up\{service="\[redacted\]"\}/,
      ),
    ]);
  });

  test('then: report tells the report subscribers (notifications) once, naming the signal, since when and the policy, target values masked', async () => {
    const clock = new TestClock(T0);
    const reports: GuardReport[] = [];
    const g = guardUnderTest(bundleFrom({ 'p.yaml': policy('{ after: 1m, then: report }') }, T0), clock, {
      gather: gatherFrom({ current: cartSilent }),
      onReport: (r) => reports.push(r),
    });
    g.allow(RUN());
    await g.guard.tick();
    clock.set('2026-01-05T10:01:00Z');
    await g.guard.tick();
    await g.guard.tick();
    expect(reports).toHaveLength(1);
    const told = signalSilentNotification(reports[0]);
    expect(told).toMatchObject({
      kind: 'signal-silent',
      title: 'Run 42 of SHOP-7: a signal policy traffic-dead-man watches is silent',
      run: { executionId: 42, experimentKey: 'SHOP-7', team: 'SHOP' },
      policies: [{ policy: 'traffic-dead-man', result: 'warn' }],
    });
    expect(told.message).toMatch(
      /^The run guard lets the run go on \(deadMan then: report\), but policy "traffic-dead-man" can no longer see it: dead man: query up\{service="\[redacted\]"\} on prometheus "default" has been silent since 2026-01-05T10:00:00\.000Z \(1m, deadMan\.after 1m\): returned no samples$/,
    );
  });

  test('a warn-mode policy reports what its dead man would stop as any finding (kind="would_stop"), and tells no report subscriber', async () => {
    const clock = new TestClock(T0);
    const reports: GuardReport[] = [];
    const warn = policy().replace('whileRunning: true\n', 'mode: warn\nwhileRunning: true\n');
    const g = guardUnderTest(bundleFrom({ 'p.yaml': warn }, T0), clock, {
      gather: gatherFrom({ current: cartSilent }),
      onReport: (r) => reports.push(r),
    });
    g.allow(RUN());
    await g.guard.tick();
    clock.set('2026-01-05T10:02:00Z');
    await g.guard.tick();
    expect(await g.metric('preflight_guard_reports_total', { policy: 'traffic-dead-man', kind: 'would_stop' })).toBe(1);
    expect(await g.metric('preflight_guard_reports_total', { kind: 'dead_man' })).toBe(0);
    expect(reports).toEqual([]);
  });

  test('two guards sharing one store agree on since when', async () => {
    const clock = new TestClock(T0);
    const runs = new MemoryGuardStore(() => clock.now().getTime());
    const bundle = bundleFrom({ 'p.yaml': policy() }, T0);
    const a = guardUnderTest(bundle, clock, { runs, gather: gatherFrom({ current: cartSilent }), replica: 'a' });
    const b = guardUnderTest(bundle, clock, { runs, gather: gatherFrom({ current: cartSilent }), replica: 'b' });
    a.allow(RUN());
    await a.guard.tick();
    clock.set('2026-01-05T10:01:30Z');
    await b.guard.tick();
    expect(await runs.silences('42')).toEqual([expect.objectContaining({ since: T0.toISOString() })]);
    clock.set('2026-01-05T10:02:00Z');
    await b.guard.tick();
    expect(await b.metric('preflight_guard_reports_total', { kind: 'cannot_stop' })).toBe(1);
  });

  test('silences that cannot be read: the run is still judged (a freeze stops it), nothing is written, a warning says why', async () => {
    const clock = new TestClock(T0);
    const runs = new MemoryGuardStore(() => clock.now().getTime());
    jest.spyOn(runs, 'silences').mockRejectedValue(new Error('READONLY'));
    const silenced = jest.spyOn(runs, 'silenced');
    const freeze =
      'kind: Policy\nname: freeze\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: UTC, deny: [{ name: freeze, start: "2026-01-05T09:00:00Z", end: "2026-01-05T11:00:00Z" }] }\n';
    const g = guardUnderTest(bundleFrom({ 'f.yaml': freeze, 'p.yaml': policy() }, T0), clock, {
      runs,
      gather: gatherFrom({ current: cartSilent }),
    });
    g.allow(RUN());
    await g.guard.tick();
    expect(await g.metric('preflight_guard_reports_total', { policy: 'freeze', kind: 'cannot_stop' })).toBe(1);
    expect(silenced).not.toHaveBeenCalled();
    expect(g.logs).toContain("guard: since when run 42's deadMan signals are silent cannot be read");
  });

  test('a policy set without deadMan reads and writes no silences', async () => {
    const clock = new TestClock(T0);
    const runs = new MemoryGuardStore(() => clock.now().getTime());
    const silences = jest.spyOn(runs, 'silences');
    const silenced = jest.spyOn(runs, 'silenced');
    const plain = policy().replace(/ {6}deadMan: .*\n/, '');
    const g = guardUnderTest(bundleFrom({ 'p.yaml': plain }, T0), clock, {
      runs,
      gather: gatherFrom({ current: allUp }),
    });
    g.allow(RUN());
    await g.guard.tick();
    expect(silences).not.toHaveBeenCalled();
    expect(silenced).not.toHaveBeenCalled();
  });
});

describe('deadMan: replay', () => {
  test('a dead-man stop is archived with since when the signal was silent, and replay judges it as the guard did', async () => {
    const { archive, lines } = archiveInMemory();
    const bundle = bundleFrom({ 'p.yaml': policy() }, T0);
    const clock = new TestClock(T0);
    const g = guardUnderTest(bundle, clock, {
      archive,
      gather: async () => ({ ok: true, facts: { signals: cartSilent } }),
      cancel: async () => ({ ok: true, outcome: 'accepted' }),
    });
    g.allow(RUN());
    await g.guard.tick();
    clock.set('2026-01-05T10:02:00Z');
    await g.guard.tick();
    await new Promise((resolve) => setImmediate(resolve));
    await archive.close();
    expect(lines).toHaveLength(1);
    const record = checkedRecord(lines[0]);
    expect(record).toMatchObject({
      whileRunning: true,
      answer: { status: 403 },
      facts: { signals: { silentSince: [{ kind: 'prometheus', query: query('cart'), since: T0.toISOString() }] } },
    });
    expect(redecide(replayBundle(bundle), record)).toMatchObject({ kind: 'decided', answer: { status: 403 } });
    // A proposed set that allows ten minutes of silence would not have stopped it.
    const patient = bundleFrom({ 'p.yaml': policy('{ after: 10m }') }, T0);
    expect(redecide(replayBundle(patient), record)).toMatchObject({ kind: 'decided', answer: { status: 200 } });
  });

  test('a stop recorded without deadMan, replayed on a set that adds one, reads as the guard would: no silence before that tick', async () => {
    const { archive, lines } = archiveInMemory();
    const freeze =
      'kind: Policy\nname: freeze\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: UTC, deny: [{ name: freeze, start: "2026-01-05T09:00:00Z", end: "2026-01-05T11:00:00Z" }] }\n';
    const plain = policy().replace(/ {6}deadMan: .*\n/, '');
    const recorded = bundleFrom({ 'f.yaml': freeze, 'p.yaml': plain }, T0);
    const g = guardUnderTest(recorded, new TestClock(T0), {
      archive,
      gather: async () => ({ ok: true, facts: { signals: cartSilent } }),
      cancel: async () => ({ ok: true, outcome: 'accepted' }),
    });
    g.allow(RUN());
    await g.guard.tick();
    await new Promise((resolve) => setImmediate(resolve));
    await archive.close();
    const record = checkedRecord(lines[0]);
    expect(record.facts.signals?.silentSince).toBeUndefined();
    const proposed = bundleFrom({ 'f.yaml': freeze, 'p.yaml': policy() }, T0);
    const replayed = redecide(replayBundle(proposed), record);
    expect(replayed).toMatchObject({ kind: 'decided', answer: { status: 403 } });
    const results = replayed.kind === 'decided' ? replayed.results : [];
    expect(results.find((r) => r.policy === 'traffic-dead-man')).toMatchObject({ result: 'pass' });
  });
});
