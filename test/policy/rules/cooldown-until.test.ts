import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../../src/payload/types';
import { decide } from '../../../src/policy/engine/decide';
import type { SignalFacts } from '../../../src/policy/facts/signal-facts';
import type { StateFacts } from '../../../src/policy/facts/state-facts';
import { stateQuery } from '../../../src/state/state-fact-source';
import { executionScopes } from '../../../src/state/execution-scopes';
import { bundleFrom } from '../../helpers/bundle-from';
import { loadProblems, NOW, policyDocument } from '../../helpers/decide-harness';

const MIN = 60_000;
/** The attacked-services example run: execution 42 of team SHOP in production, one checkout and one cart pod. */
const run = (): PreflightPayload =>
  JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'examples', 'attacked-services', 'run.json'), 'utf8'),
  ) as PreflightPayload;

const ERRORS = 'job:errors:ratio5m{deployment="{{target.k8s.deployment}}"}';
const PER_SERVICE = `cooldown:
      per: service
      until:
        - prometheus: { query: '${ERRORS}', recoveredWhen: "< 0.01", for: 5m }`;
/** The query for checkout, and the hold query the rule asks with it (300 s sampled every 10 s). */
const NOW_Q = 'job:errors:ratio5m{deployment="checkout"}';
const HELD_Q = `time() - max_over_time(timestamp(((${NOW_Q}) >= 0.01) or absent(${NOW_Q}))[300s:10s])`;
const CART_Q = 'job:errors:ratio5m{deployment="cart"}';

const endedAgo = (scope: string, agoMs: number, state = 'FAILED'): StateFacts => ({
  ended: { [scope]: [{ id: '40', atMs: NOW.getTime() - agoMs, state: state as 'FAILED' }] },
});
const CHECKOUT = 'service:k8s.deployment=checkout';
const vector = (value?: string) => ({
  resultType: 'vector' as const,
  result: value === undefined ? [] : [{ metric: {}, value: [NOW.getTime() / 1000, value] as [number, string] }],
});
/** Checkout's error ratio now and seconds since it was last not recovered (undefined: all of the hold). */
const prom = (now?: string, sinceBad?: string, extra: Record<string, unknown> = {}): SignalFacts => ({
  prometheus: {
    default: { [NOW_Q]: vector(now), [HELD_Q]: vector(sinceBad), [CART_Q]: vector('0'), ...extra },
  } as SignalFacts['prometheus'],
});

function reasons(rule: string, state: StateFacts, signals?: SignalFacts, payload = run()): string[] {
  const decision = decide(bundleFrom({ 'p.yaml': policyDocument(rule) }, NOW), payload, { state, signals }, NOW, {
    decisionId: 'd-1',
  });
  const result = decision.results.find((r) => r.policy === 'p');
  expect(decision.allowed).toBe(result?.result === 'pass');
  return result?.result === 'pass' ? [] : (result?.reasons ?? ['no result']);
}

const COOLING =
  'service k8s.deployment=checkout is cooling down until it has recovered from execution 40 (ended FAILED at';
const LATEST = 'the cool-down ends at the latest at';

describe('cooldown until the last run recovered, per attacked service', () => {
  test.each<[string, StateFacts, SignalFacts | undefined, string[]]>([
    ['no earlier run on the attacked services allows, asking nothing', { ended: {} }, undefined, []],
    [
      'an error ratio still over the threshold denies, naming the run and the sample',
      endedAgo(CHECKOUT, 20 * MIN),
      prom('0.2', '0'),
      [
        `${COOLING} 2026-01-05T09:40:00.000Z): query ${NOW_Q} on prometheus "default" returned 0.2, not yet < 0.01; ${LATEST} 2026-01-06T09:40:00.000Z`,
      ],
    ],
    [
      'back under the threshold for less than the hold denies, saying since when and how long remains',
      endedAgo(CHECKOUT, 20 * MIN),
      prom('0.001', '70'),
      [
        `${COOLING} 2026-01-05T09:40:00.000Z): query ${NOW_Q} on prometheus "default" is back < 0.01 since 2026-01-05T09:59:00.000Z, not yet for 5m: 4m remains; ${LATEST} 2026-01-06T09:40:00.000Z`,
      ],
    ],
    ['recovered for the whole hold allows', endedAgo(CHECKOUT, 20 * MIN), prom('0.001'), []],
    [
      'the hold starts no earlier than the run ended',
      endedAgo(CHECKOUT, 2 * MIN),
      prom('0.001'),
      [
        `${COOLING} 2026-01-05T09:58:00.000Z): query ${NOW_Q} on prometheus "default" is back < 0.01 since 2026-01-05T09:58:00.000Z, not yet for 5m: 3m remains; ${LATEST} 2026-01-06T09:58:00.000Z`,
      ],
    ],
    [
      'no samples cannot show a recovery: cannot decide',
      endedAgo(CHECKOUT, 20 * MIN),
      prom(undefined, undefined),
      [
        `cannot decide whether service k8s.deployment=checkout has recovered from execution 40 (ended FAILED at 2026-01-05T09:40:00.000Z): query ${NOW_Q} on prometheus "default" returned no samples, so it cannot show the targets recovered (< 0.01); ${LATEST} 2026-01-06T09:40:00.000Z`,
      ],
    ],
    [
      'a Prometheus that could not answer cannot decide (fail closed)',
      endedAgo(CHECKOUT, 20 * MIN),
      prom(undefined, undefined, { [NOW_Q]: { error: 'connect ECONNREFUSED 127.0.0.1:9090' } }),
      [
        `cannot decide whether service k8s.deployment=checkout has recovered from execution 40 (ended FAILED at 2026-01-05T09:40:00.000Z): query ${NOW_Q} on prometheus "default" could not be read (connect ECONNREFUSED 127.0.0.1:9090); ${LATEST} 2026-01-06T09:40:00.000Z`,
      ],
    ],
    [
      'a hold query that was not read cannot decide',
      endedAgo(CHECKOUT, 20 * MIN),
      { prometheus: { default: { [NOW_Q]: vector('0') } } },
      [
        `cannot decide whether service k8s.deployment=checkout has recovered from execution 40 (ended FAILED at 2026-01-05T09:40:00.000Z): the hold query of query ${NOW_Q} on prometheus "default" was not run (no signal facts for it); ${LATEST} 2026-01-06T09:40:00.000Z`,
      ],
    ],
    [
      'past atMost (default 1d) the cool-down is over, recovered or not',
      endedAgo(CHECKOUT, 25 * 60 * MIN),
      undefined,
      [],
    ],
    ['a COMPLETED run does not start a cool-down', endedAgo(CHECKOUT, 20 * MIN, 'COMPLETED'), undefined, []],
    [
      'a failed run on another environment scope is not this service',
      endedAgo('environment:production', 20 * MIN),
      undefined,
      [],
    ],
  ])('%s', (_name, state, signals, expected) => {
    expect(reasons(PER_SERVICE, state, signals)).toEqual(expected);
  });

  it('is not yet over while the fixed duration runs, however healthy the signals', () => {
    const rule = `${PER_SERVICE}\n      duration: 30m`;
    expect(reasons(rule, endedAgo(CHECKOUT, 20 * MIN), prom('0'))).toEqual([
      'service k8s.deployment=checkout is cooling down: execution 40 ended FAILED at 2026-01-05T09:40:00.000Z; runs may start again after 2026-01-05T10:10:00.000Z and its targets have recovered (cool-down 30m)',
    ]);
  });

  it('an alert on the attacked service that still fires denies; once resolved the run starts', () => {
    const rule = `cooldown:
      per: service
      until:
        - alerts: { matchers: ['service="{{target.k8s.deployment}}"'] }`;
    const alert = (endsAt: string) => ({
      alertmanager: {
        default: {
          readAt: NOW.toISOString(),
          alerts: [
            { labels: { alertname: 'CheckoutErrors', service: 'checkout' }, startsAt: '2026-01-05T09:41:00Z', endsAt },
          ],
        },
      },
    });
    expect(reasons(rule, endedAgo(CHECKOUT, 20 * MIN), alert('2026-01-05T10:04:00Z'))).toEqual([
      `${COOLING} 2026-01-05T09:40:00.000Z): 1 alert matching {service="checkout"} firing in alertmanager "default" (read 2026-01-05T10:00:00.000Z): CheckoutErrors{service="checkout"} since 2026-01-05T09:41:00Z; ${LATEST} 2026-01-06T09:40:00.000Z`,
    ]);
    expect(reasons(rule, endedAgo(CHECKOUT, 20 * MIN), alert('2026-01-05T09:55:00Z'))).toEqual([]);
  });

  it('per environment fills {{environment}} from the scope the last run shares', () => {
    const rule = `cooldown:
      until:
        - prometheus: { query: 'slo:burn_rate:1h{environment="{{environment}}"}', recoveredWhen: "<= 1" }`;
    const facts = (v: string): SignalFacts => ({
      prometheus: { default: { 'slo:burn_rate:1h{environment="production"}': vector(v) } },
    });
    expect(reasons(rule, endedAgo('environment:production', 20 * MIN), facts('3'))).toEqual([
      `environment production is cooling down until it has recovered from execution 40 (ended FAILED at 2026-01-05T09:40:00.000Z): query slo:burn_rate:1h{environment="production"} on prometheus "default" returned 3, not yet <= 1; ${LATEST} 2026-01-06T09:40:00.000Z`,
    ]);
    expect(reasons(rule, endedAgo('environment:production', 20 * MIN), facts('0.5'))).toEqual([]);
  });

  it('a target without the service attribute cannot decide which services the run attacks', () => {
    const payload = run();
    const pod = payload.execution.steps?.[0].targetExecutions?.[0];
    if (pod) pod.attributes = (pod.attributes ?? []).filter((a) => a.key !== 'k8s.deployment');
    const [reason] = reasons(PER_SERVICE, { ended: {} }, undefined, payload);
    expect(reason).toMatch(
      /^cannot decide: 1 target of the run carries no k8s.deployment \(target prod-eu\/shop\/checkout/,
    );
    expect(reasons(`${PER_SERVICE}\n      whenMissing: allow`, { ended: {} }, undefined, payload)).toEqual([]);
  });
});

describe('cooldown until: load errors', () => {
  test.each([
    ['neither duration nor until', 'cooldown: {per: service}', 'a cool-down needs duration, until, or both'],
    [
      'a target placeholder per environment would judge this run, not the last',
      `cooldown: {until: [{prometheus: {query: '${ERRORS}', recoveredWhen: "< 1"}}]}`,
      "{{target.k8s.deployment}} in until would judge this run's targets, not the last run's",
    ],
    [
      'a target placeholder of another key than by',
      `cooldown: {per: service, by: k8s.service.name, until: [{prometheus: {query: '${ERRORS}', recoveredWhen: "< 1"}}]}`,
      'with per: service and by: k8s.deployment',
    ],
    ['by without per: service', 'cooldown: {duration: 5m, by: k8s.deployment}', 'by names the attacked service'],
    ['atMost without until', 'cooldown: {duration: 5m, atMost: 1h}', 'atMost bounds a cool-down until recovered'],
    [
      'a by that runs are not recorded under',
      'cooldown: {duration: 5m, per: service, by: app}',
      'by: must be one of k8s.deployment, k8s.statefulset',
    ],
    [
      'a recoveredWhen that is not a comparison',
      "cooldown: {until: [{prometheus: {query: 'up', recoveredWhen: 'low'}}]}",
      'recoveredWhen must be a comparison with a number',
    ],
    [
      'a hold longer than a day',
      "cooldown: {until: [{prometheus: {query: 'up', recoveredWhen: '== 1', for: 2d}}]}",
      'for must be at least 1s and at most 1d, got "2d"',
    ],
    [
      'a misspelt signal kind is named, with the kind meant',
      "cooldown: {until: [{prometeus: {query: up, recoveredWhen: '== 1'}}]}",
      'until[0].prometeus: prometeus is not a known field: did you mean "prometheus"?',
    ],
    [
      'one signal per item',
      "cooldown: {until: [{alerts: {matchers: 'a=\"b\"'}, prometheus: {query: up, recoveredWhen: '== 1'}}]}",
      'until[0]: must NOT have more than 1 properties',
    ],
    [
      'onUnavailable is not offered: signals that cannot answer never recover',
      'cooldown: {until: [{alerts: {matchers: \'a="b"\', onUnavailable: allow}}]}',
      'onUnavailable: onUnavailable is not a known field',
    ],
    [
      'deadMan is not offered: a cool-down judges no run in progress',
      'cooldown: {until: [{alerts: {matchers: \'a="b"\', deadMan: {after: 1m}}}]}',
      'deadMan: deadMan is not a known field',
    ],
    [
      'a target placeholder of a key runs are not recorded under names the keys that are',
      `cooldown: {per: service, duration: 10m, until: [{prometheus: {query: 'x{d="{{target.k8s.namespace}}"}', recoveredWhen: "< 1"}}]}`,
      'by: one of k8s.deployment, k8s.statefulset, k8s.daemonset, k8s.service.name',
    ],
  ])('%s', (_name, rule, expected) => {
    expect(loadProblems({ 'p.yaml': policyDocument(rule) }).join('\n')).toContain(expected);
  });
});

describe('runs recorded and read per attacked service', () => {
  it('a created run is recorded under each attacked service as well as its team and environment', () => {
    expect(executionScopes(run().execution)).toEqual([
      'team:shop',
      'environment:production',
      'service:k8s.deployment=checkout',
      'service:k8s.deployment=cart',
      'service:k8s.service.name=checkout',
      'service:k8s.service.name=cart',
      'service:k8s.service.name=cart-internal',
    ]);
  });

  it('a per-service cool-down reads the ended runs of the services this run attacks', () => {
    const query = stateQuery(
      [{ kind: 'ended', per: 'service', attribute: 'k8s.deployment', windowMs: 86_400_000 }],
      run().execution,
      NOW.getTime(),
    );
    expect(query.scopes).toEqual(['service:k8s.deployment=checkout', 'service:k8s.deployment=cart']);
    expect(query.endedSinceMs).toBe(NOW.getTime() - 86_400_000);
  });
});
