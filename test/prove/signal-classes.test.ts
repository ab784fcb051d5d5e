import fc from 'fast-check';
import type { AlertFact, AlertsAnswer, QueryAnswer } from '../../src/policy/facts/signal-facts';
import { checkAlerts } from '../../src/policy/signals/alerts-check';
import { checkPrometheus } from '../../src/policy/signals/prometheus-check';
import {
  type AlertsSpec,
  compileAlertsSpec,
  compilePrometheusSpec,
  type PrometheusSpec,
} from '../../src/policy/signals/signal-rule-specs';
import { type AlertClass, alertsAnswerOf, signalDims, signalFactsOf } from '../../src/prove/signal-classes';

/**
 * What the signal dimensions rest on (docs/decisions/0034-signals-as-fact-classes.md): a rule denies on
 * a vector of samples exactly when it denies on one of its numbers alone (on the empty vector when
 * none is a number), and on a list of alerts exactly when it denies on one of them alone; and every
 * single sample or alert is decided by every rule as one of the dimension's classes is.
 */
const NOW = new Date('2026-03-02T10:00:00Z');
const QUERY = 'up{job="api"}';

const promCheck = (spec: PrometheusSpec) => {
  const c = compilePrometheusSpec(spec);
  if ('message' in c) throw new Error(c.message);
  return c.check;
};
const alertsCheck = (spec: AlertsSpec) => {
  const c = compileAlertsSpec(spec);
  if ('message' in c) throw new Error(c.message);
  return c.check;
};

const denyWhen = fc.tuple(
  fc.constantFrom('>', '>=', '<', '<=', '==', '!='),
  fc.constantFrom(-1, 0, 0.5, 2, 'Inf', '-Inf'),
);
const promSpec = fc.record({
  denyWhen: fc.option(
    denyWhen.map(([op, t]) => `${op} ${t}`),
    { nil: undefined },
  ),
  onEmpty: fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
  onUnavailable: fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
});
const sample = fc.constantFrom('-2', '-1', '0', '0.25', '0.5', '1', '2', '3', 'NaN', '+Inf', '-Inf');

describe('prometheus: one sample (or none) stands for every vector', () => {
  const vector = (values: readonly string[]): QueryAnswer => ({
    resultType: 'vector',
    result: values.map((v) => ({ metric: { i: v }, value: [0, v] })),
  });
  const denies = (spec: Omit<PrometheusSpec, 'query'>, answer: QueryAnswer) =>
    checkPrometheus(promCheck({ ...spec, query: QUERY }), { prometheus: { default: { [QUERY]: answer } } }, [{}], NOW)
      .found.length > 0;

  it('a rule denies a vector exactly when it denies one of its numbers alone, or the empty vector when none is one', () => {
    fc.assert(
      fc.property(promSpec, fc.array(sample, { maxLength: 4 }), (spec, values) => {
        const numbers = values.filter((v) => v !== 'NaN');
        const singles = numbers.length === 0 ? [vector([])] : numbers.map((v) => vector([v]));
        expect(denies(spec, vector(values))).toBe(singles.some((s) => denies(spec, s)));
      }),
      { numRuns: 500, seed: 47 },
    );
  });

  it("every sample's answers, by every rule reading its query, are those of one class of the dimension", () => {
    fc.assert(
      fc.property(fc.array(promSpec, { minLength: 1, maxLength: 3 }), sample, (specs, value) => {
        const docs = [{ rules: specs.map((s) => ({ prometheus: { query: QUERY, ...s } })) }];
        const [dim] = signalDims(docs);
        const answers = (a: QueryAnswer) => specs.map((s) => denies(s, a));
        const classes = dim.values.map((v) => {
          const { signals } = signalFactsOf([dim], () => v, NOW);
          return answers(signals.prometheus?.default?.[QUERY] as QueryAnswer);
        });
        expect(classes).toContainEqual(answers(vector([value])));
      }),
      { numRuns: 300, seed: 47 },
    );
  });
});

describe('alerts: one alert (or none) stands for every list', () => {
  const labelValue = fc.constantFrom(undefined, 'critical', 'page', 'warning', 'payments', 'shop', '');
  const alert = fc.record({
    severity: labelValue,
    team: labelValue,
    inhibited: fc.boolean(),
    silenced: fc.boolean(),
    ended: fc.boolean(),
  });
  const toFact = (a: { severity?: string; team?: string; inhibited: boolean; silenced: boolean; ended: boolean }) => {
    const labels: Record<string, string> = {};
    if (a.severity !== undefined) labels.severity = a.severity;
    if (a.team !== undefined) labels.team = a.team;
    const fact: AlertFact = {
      labels,
      status: {
        ...(a.silenced ? { silencedBy: ['s1'] } : {}),
        ...(a.inhibited ? { inhibitedBy: ['i1'] } : {}),
      },
      ...(a.ended ? { endsAt: '2026-03-02T09:00:00Z' } : {}),
    };
    return fact;
  };
  const matchers = fc.constantFrom(
    'severity="critical"',
    'severity!="warning"',
    'severity=~"critical|page"',
    'severity!~"page|warning"',
    'team="payments"',
    'team=""',
    '{severity="critical", team!="shop"}',
  );
  const alertsSpec = fc.record({
    matchers: fc.array(matchers, { minLength: 1, maxLength: 2 }),
    includeSilenced: fc.boolean(),
    includeInhibited: fc.boolean(),
    onUnavailable: fc.constantFrom<'allow' | 'deny'>('allow', 'deny'),
  });
  // One silence, begun before or after the run started: shared by every alert of the list.
  const context = fc.record({ silenceBefore: fc.boolean(), created: fc.boolean() });
  const denies = (spec: AlertsSpec, answer: AlertsAnswer, created?: string) =>
    checkAlerts(alertsCheck(spec), { alertmanager: { default: answer } }, [{}], NOW, created).found.length > 0;
  const listed = (alerts: AlertFact[], ctx: { silenceBefore: boolean; created: boolean }) => ({
    answer: {
      alerts,
      silences: { s1: { startsAt: ctx.silenceBefore ? '2026-03-02T07:00:00Z' : '2026-03-02T09:30:00Z' } },
    },
    created: ctx.created ? '2026-03-02T08:00:00Z' : undefined,
  });

  it('a rule denies a list exactly when it denies one of its alerts alone', () => {
    fc.assert(
      fc.property(alertsSpec, fc.array(alert, { maxLength: 4 }), context, (spec, list, ctx) => {
        const facts = list.map(toFact);
        const whole = listed(facts, ctx);
        const one = facts.map((f) => listed([f], ctx));
        expect(denies(spec, whole.answer, whole.created)).toBe(one.some((o) => denies(spec, o.answer, o.created)));
      }),
      { numRuns: 500, seed: 47 },
    );
  });

  it.each([
    ['includeSilenced', { silenced: true, inhibited: false }],
    ['includeInhibited', { silenced: false, inhibited: true }],
  ] as const)('two rules that differ only in %s are told apart by a class', (flag, status) => {
    const specs: AlertsSpec[] = [
      { matchers: 'severity="critical"', [flag]: true },
      { matchers: 'severity="critical"', [flag]: false },
    ];
    const [dim] = signalDims([{ rules: specs.map((s) => ({ alerts: s })) }]);
    const one = listed([toFact({ severity: 'critical', ...status, ended: false })], {
      silenceBefore: true,
      created: true,
    });
    const answers = (answer: AlertsAnswer, created?: string) => specs.map((s) => denies(s, answer, created));
    expect(answers(one.answer, one.created)).toEqual([true, false]);
    expect(
      dim.values.map((v) => {
        const made = alertsAnswerOf(v as AlertClass, NOW);
        return answers(made.answer, made.created);
      }),
    ).toContainEqual([true, false]);
  });

  it("every alert's answers, by every rule reading its source, are those of one class of the dimension", () => {
    // Rules often share their matchers, so that only includeSilenced or includeInhibited tells them apart.
    const specsOf = fc
      .tuple(fc.array(matchers, { minLength: 1, maxLength: 2 }), fc.array(alertsSpec, { minLength: 1, maxLength: 3 }))
      .chain(([shared, specs]) =>
        fc.tuple(...specs.map((s) => fc.boolean().map((same) => (same ? { ...s, matchers: shared } : s)))),
      );
    fc.assert(
      fc.property(specsOf, alert, context, (specs, a, ctx) => {
        const docs = [{ rules: specs.map((s) => ({ alerts: s })) }];
        const [dim] = signalDims(docs);
        const answers = (answer: AlertsAnswer, created?: string) => specs.map((s) => denies(s, answer, created));
        const classes = dim.values.map((v) => {
          const made = alertsAnswerOf(v as AlertClass, NOW);
          return answers(made.answer, made.created);
        });
        const one = listed([toFact(a)], ctx);
        expect(classes).toContainEqual(answers(one.answer, one.created));
        expect(classes).toContainEqual(answers({ error: 'down' }));
      }),
      { numRuns: 300, seed: 47 },
    );
  });
});
