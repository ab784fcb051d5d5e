import { checkAlerts } from '../../src/policy/signals/alerts-check';
import { checkPrometheus } from '../../src/policy/signals/prometheus-check';
import type { RunValues } from '../../src/policy/signals/placeholder-text';
import {
  compileAlertsSpec,
  compilePrometheusSpec,
  type AlertsSpec,
  type PrometheusSpec,
} from '../../src/policy/signals/signal-rule-specs';
import type { AlertFact, QueryAnswer, SignalFacts, SilenceFact } from '../../src/policy/facts/signal-facts';

const now = new Date('2026-01-05T10:00:00Z');
const readAt = '2026-01-05T09:59:58.000Z';
const prod: RunValues[] = [{ environment: 'prod', team: 'SRE' }];

/** When the run started (its execution's created): silence s1 began before it. */
const runCreated = '2026-01-05T09:40:00.000Z';
const silences = { s1: { startsAt: '2026-01-05T09:00:00.000Z', updatedAt: '2026-01-05T09:00:00.000Z' } };
function alerts(spec: AlertsSpec, facts: SignalFacts | undefined, runs = prod, since: string | null = runCreated) {
  const c = compileAlertsSpec(spec);
  if ('message' in c) throw new Error(c.message);
  return checkAlerts(c.check, facts, runs, now, since ?? undefined).found;
}
const am = (
  list: AlertFact[],
  more: { silences?: Record<string, SilenceFact>; silencesError?: string } = { silences },
): SignalFacts => ({
  alertmanager: { default: { readAt, alerts: list, ...more } },
});
const alert = (labels: Record<string, string>, more: Partial<AlertFact> = {}): AlertFact => ({
  labels: { alertname: 'HighErrorRate', ...labels },
  startsAt: '2026-01-05T09:50:00Z',
  ...more,
});

describe('alerts rule (pure, from signal facts)', () => {
  const rule: AlertsSpec = { matchers: ['severity="critical"', 'namespace="{{environment}}"'] };

  it.each<[string, AlertFact[], number]>([
    ['a matching alert', [alert({ severity: 'critical', namespace: 'prod' })], 1],
    ['another environment', [alert({ severity: 'critical', namespace: 'staging' })], 0],
    ['another severity', [alert({ severity: 'warning', namespace: 'prod' })], 0],
    [
      'a silenced alert',
      [
        alert(
          { severity: 'critical', namespace: 'prod' },
          { status: { state: 'suppressed', silencedBy: ['s1'], inhibitedBy: [] } },
        ),
      ],
      0,
    ],
    [
      'an inhibited alert',
      [
        alert(
          { severity: 'critical', namespace: 'prod' },
          { status: { state: 'suppressed', silencedBy: [], inhibitedBy: ['x'] } },
        ),
      ],
      0,
    ],
    [
      'an alert resolved before the read',
      [alert({ severity: 'critical', namespace: 'prod' }, { endsAt: '2026-01-05T09:59:00Z' })],
      0,
    ],
    [
      'an alert ending after the read',
      [alert({ severity: 'critical', namespace: 'prod' }, { endsAt: '2026-01-05T10:04:00Z' })],
      1,
    ],
    ['no alerts', [], 0],
  ])('%s -> %d violation(s)', (_what, list, count) => {
    expect(alerts(rule, am(list))).toHaveLength(count);
  });

  it('names the alerts with labels and since when, capped in length', () => {
    const many = Array.from({ length: 40 }, (_, i) =>
      alert({ severity: 'critical', namespace: 'prod', pod: `api-${i}` }),
    );
    const [v] = alerts(rule, am(many));
    expect(v.reason).toMatch(
      /^40 alerts matching \{severity="critical", namespace="prod"\} firing in alertmanager "default" \(read 2026-01-05T09:59:58.000Z\): HighErrorRate\{namespace="prod",pod="api-0",severity="critical"\} since 2026-01-05T09:50:00Z; /,
    );
    expect(v.reason).toMatch(/\(\+\d+ more\)$/);
    expect(v.reason.length).toBeLessThan(600);
    expect(v.signal).toEqual({
      source: 'alertmanager "default"',
      query: '{severity="critical", namespace="prod"}',
      result: '40 matching alerts of 40',
      readAt,
    });
  });

  it('returns what it read with what it found, pass or deny', () => {
    const c = compileAlertsSpec(rule);
    if ('message' in c) throw new Error(c.message);
    const quiet = checkAlerts(c.check, am([alert({ severity: 'warning', namespace: 'prod' })]), prod, now);
    expect(quiet).toEqual({
      found: [],
      read: [
        {
          source: 'alertmanager "default"',
          query: '{severity="critical", namespace="prod"}',
          result: '0 matching alerts of 1',
          readAt,
        },
      ],
    });
  });

  it('counts silenced alerts when asked', () => {
    const silenced = [
      alert(
        { severity: 'critical', namespace: 'prod' },
        { status: { state: 'suppressed', silencedBy: ['s1'], inhibitedBy: [] } },
      ),
    ];
    expect(alerts({ ...rule, includeSilenced: true }, am(silenced))).toHaveLength(1);
  });

  describe('a silence made after the run started hides nothing from it', () => {
    const silencedBy = (ids: string[]) =>
      alert(
        { severity: 'critical', namespace: 'prod' },
        { status: { state: 'suppressed', silencedBy: ids, inhibitedBy: [] } },
      );
    const midRun = { startsAt: '2026-01-05T09:55:00.000Z', updatedAt: '2026-01-05T09:55:00.000Z' };

    it.each<[string, SignalFacts, string | null, string]>([
      [
        'a silence that began after the run started',
        am([silencedBy(['s2'])], { silences: { ...silences, s2: midRun } }),
        runCreated,
        'silenced by s2, made or changed after the run started (2026-01-05T09:40:00.000Z) or not listed, which hides nothing from it',
      ],
      [
        'a silence that began before but was changed (extended) after the run started',
        am([silencedBy(['s1'])], { silences: { s1: { ...silences.s1, updatedAt: midRun.updatedAt } } }),
        runCreated,
        'silenced by s1, made or changed after the run started',
      ],
      [
        'a silence that is not listed',
        am([silencedBy(['s9'])]),
        runCreated,
        'silenced by s9, made or changed after the run started (2026-01-05T09:40:00.000Z) or not listed',
      ],
      [
        'silences that could not be read',
        am([silencedBy(['s1'])], { silencesError: 'HTTP 503: "busy"' }),
        runCreated,
        'silenced, but the silences could not be read: HTTP 503: "busy"',
      ],
      [
        'silences never read (a facts file without them)',
        am([silencedBy(['s1'])], {}),
        runCreated,
        'silenced by s1, made or changed after the run started',
      ],
      [
        'a run that sends no execution.created',
        am([silencedBy(['s1'])]),
        null,
        'silenced, but the run sends no execution.created (a time) to tell which silences began after it started',
      ],
    ])('%s: the alert counts as firing, and the reason says why', (_name, facts, since, why) => {
      const found = alerts(rule, facts, prod, since);
      expect(found).toHaveLength(1);
      expect(found[0].reason).toContain(
        `HighErrorRate{namespace="prod",severity="critical"} since 2026-01-05T09:50:00Z (${why}`,
      );
    });

    it('a silence from before the run still hides the alert, whatever else silences it', () => {
      expect(alerts(rule, am([silencedBy(['s2', 's1'])], { silences: { ...silences, s2: midRun } }))).toEqual([]);
    });

    it('a silence that began the moment the run was created still hides it', () => {
      expect(alerts(rule, am([silencedBy(['s1'])]), prod, silences.s1.startsAt)).toEqual([]);
    });
  });

  it('asks about every environment of the run', () => {
    const both: RunValues[] = [{ environment: 'prod' }, { environment: 'staging' }];
    const found = alerts(rule, am([alert({ severity: 'critical', namespace: 'staging' })]), both);
    expect(found.map((v) => v.signal?.query)).toEqual(['{severity="critical", namespace="staging"}']);
  });

  it.each<[string, SignalFacts | undefined, AlertsSpec, RegExp, boolean]>([
    ['no facts', undefined, rule, /^cannot decide: the alerts of alertmanager "default" were not read/, true],
    [
      'another source only',
      { alertmanager: { eu: { alerts: [] } } },
      rule,
      /^cannot decide: the alerts of alertmanager "default" were not read/,
      true,
    ],
    [
      'an error',
      { alertmanager: { default: { error: 'connect ECONNREFUSED' } } },
      rule,
      /^cannot decide: the alerts of alertmanager "default" could not be read \(connect ECONNREFUSED\)$/,
      true,
    ],
    [
      'an error, onUnavailable: allow',
      { alertmanager: { default: { error: 'timeout' } } },
      { ...rule, onUnavailable: 'allow' },
      /allowed anyway because the policy says onUnavailable: allow$/,
      false,
    ],
  ])('%s', (_what, facts, spec, reason, undecidable) => {
    const [v] = alerts(spec, facts);
    expect(v.reason).toMatch(reason);
    expect(v.status).toBe(undecidable ? 'undecidable' : 'advisory');
  });

  it('cannot decide for a run without the value a placeholder needs', () => {
    expect(alerts({ matchers: 'team="{{team}}"' }, am([]), [{ environment: 'prod' }])).toEqual([
      {
        reason:
          'cannot decide: the alert matchers need {{team}} but the payload names no team (execution.teamKey is missing)',
        status: 'undecidable',
      },
    ]);
  });

  it('never reads an inherited source name', () => {
    expect(alerts({ matchers: 'a="b"', source: 'constructor' }, am([]))[0].reason).toMatch(/were not read/);
  });
});

describe('prometheus rule (pure, from signal facts)', () => {
  const q = 'job:error_ratio:rate5m{env="{{environment}}"}';
  const asked = 'job:error_ratio:rate5m{env="prod"}';
  function prom(spec: PrometheusSpec, answer: QueryAnswer | undefined) {
    const c = compilePrometheusSpec(spec);
    if ('message' in c) throw new Error(c.message);
    return checkPrometheus(
      c.check,
      answer === undefined ? {} : { prometheus: { default: { [asked]: answer } } },
      prod,
      new Date(0),
    ).found;
  }
  const vector = (...values: string[]): QueryAnswer => ({
    readAt,
    resultType: 'vector',
    result: values.map((v, i) => ({ metric: { job: `j${i}` }, value: [1767607198, v] })),
  });

  it.each<[string, PrometheusSpec, QueryAnswer | undefined, RegExp | undefined, boolean?]>([
    ['below the threshold', { query: q, denyWhen: '> 0.02' }, vector('0.01'), undefined],
    [
      'above the threshold',
      { query: q, denyWhen: '> 0.02' },
      vector('0.01', '0.05'),
      /^query job:error_ratio:rate5m\{env="prod"\} on prometheus "default" returned \{job="j1"\} 0.05 > 0.02 \(read 2026-01-05T09:59:58.000Z\)$/,
    ],
    [
      'a reason comes first',
      { query: q, denyWhen: '> 0.02', reason: 'the error budget burns fast' },
      vector('1'),
      /^the error budget burns fast: query /,
    ],
    ['no denyWhen, samples', { query: q }, vector('3'), /returned \{job="j0"\} 3 \(read/],
    ['no denyWhen, empty', { query: q }, vector(), undefined],
    ['empty with denyWhen: allowed by default', { query: q, denyWhen: '> 0.02' }, vector(), undefined],
    [
      'empty, onEmpty: deny',
      { query: q, denyWhen: '> 0.02', onEmpty: 'deny' },
      vector(),
      /^cannot decide: query .* returned no samples to compare with > 0.02 \(onEmpty: deny\)/,
      true,
    ],
    [
      'only NaN, onEmpty: deny',
      { query: q, denyWhen: '> 0.02', onEmpty: 'deny' },
      vector('NaN'),
      /returned only NaN/,
      true,
    ],
    ['only NaN, default', { query: q, denyWhen: '> 0.02' }, vector('NaN'), undefined],
    [
      '+Inf is above any threshold',
      { query: q, denyWhen: '> 14.4' },
      vector('+Inf'),
      /returned \{job="j0"\} \+Inf > 14.4/,
    ],
    ['-Inf is below any threshold', { query: q, denyWhen: '> 14.4' }, vector('-Inf'), undefined],
    [
      'a value that is not a number never allows',
      { query: q, denyWhen: '> 14.4' },
      vector('0.1', '16,2'),
      /^cannot decide: query .* returned a value that is not a number: \{job="j1"\} 16,2 \(read 2026-01-05T09:59:58.000Z\)$/,
      true,
    ],
    [
      'scalar with denyWhen',
      { query: q, denyWhen: '>= 1' },
      { readAt, resultType: 'scalar', result: [1, '1'] },
      /returned 1 >= 1/,
    ],
    [
      'scalar without denyWhen',
      { query: q },
      { readAt, resultType: 'scalar', result: [1, '1'] },
      /^cannot decide: .* returned a scalar: give denyWhen to compare it$/,
      true,
    ],
    [
      'a range vector',
      { query: q },
      { readAt, resultType: 'matrix', result: [] },
      /^cannot decide: .* returned a range vector \(matrix\): ask for an instant vector$/,
      true,
    ],
    [
      'a refused query',
      { query: q, onUnavailable: 'allow' },
      { readAt, error: 'bad_data: parse error', badQuery: true },
      /^cannot decide: Prometheus refused query .* \(bad_data: parse error\)$/,
      true,
    ],
    [
      'an unreachable source',
      { query: q },
      { readAt, error: 'no answer within 5000 ms' },
      /^cannot decide: query .* could not be read \(no answer within 5000 ms\)$/,
      true,
    ],
    ['not gathered', { query: q }, undefined, /^cannot decide: query .* was not run \(no signal facts for it\)$/, true],
  ])('%s', (_what, spec, answer, reason, undecidable = false) => {
    const found = prom(spec, answer);
    if (reason === undefined) {
      expect(found).toEqual([]);
      return;
    }
    expect(found).toHaveLength(1);
    expect(found[0].reason).toMatch(reason);
    expect(found[0].status === 'undecidable').toBe(undecidable);
  });

  it('an unreachable source with onUnavailable: allow is said, not denied', () => {
    const [v] = prom({ query: q, onUnavailable: 'allow' }, { error: 'connect ECONNREFUSED' });
    expect(v).toEqual(
      expect.objectContaining({ status: 'advisory', reason: expect.stringContaining('onUnavailable: allow') }),
    );
  });
});
