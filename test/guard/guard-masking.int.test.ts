import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Target } from '../../src/payload/types';
import { REDACTED } from '../../src/redaction/redaction-marker';
import { runStoppedNotification } from '../../src/notify/event-notifications';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { withAttack } from '../helpers/decide-harness';
import { FIXTURES } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import type { FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { cancels, guardUnderTest, runningOnFake, TestClock } from './guard-harness';

/** Pods as Steadybit's Kubernetes extension sends them: the first is of deployment `checkout`. */
const [CHECKOUT_A] = JSON.parse(readFileSync(join(FIXTURES, 'steadybit-targets', 'k8s-pods.json'), 'utf8')) as Target[];
const GUARDED_ALERTS = `kind: Policy
name: service-alerts
whileRunning: true
rules:
  - alerts: { matchers: ['severity="critical"', 'service="{{target.k8s.deployment}}"'] }
`;
const firing: SignalFacts = {
  alertmanager: {
    default: { alerts: [{ labels: { alertname: 'HighLatency', severity: 'critical', service: 'checkout' } }] },
  },
};

let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
});

test("a stop's log line and its notification mask the target values exactly where the audit line does", async () => {
  const clock = new TestClock(new Date('2026-01-05T10:00:00Z'));
  const g = guardUnderTest(bundleFrom({ 'p.yaml': GUARDED_ALERTS }), clock, {
    fake,
    gather: async () => ({ ok: true, facts: { signals: firing } }),
  });
  runningOnFake(fake, 61);
  g.allow(
    withAttack((s, p) => {
      p.execution.id = 61;
      s.targetExecutions = [structuredClone(CHECKOUT_A)];
      s.totalTargetCount = 1;
    }),
  );
  await g.guard.tick();
  expect(cancels(fake, 61)).toHaveLength(1);

  // The audit line (AUDIT_REDACT_ATTRIBUTES=true here): the deployment's name is masked in the reason.
  const masked = `1 alert matching {severity="critical", service="${REDACTED}"} firing in alertmanager "default": HighLatency{service="${REDACTED}",severity="critical"}`;
  expect(g.audit).toHaveLength(1);
  expect(g.audit[0].policies).toEqual([expect.objectContaining({ policy: 'service-alerts', reasons: [masked] })]);
  expect(g.audit[0].message).toContain(masked);

  // What onStop subscribers get, and so the notification: the same masked text, nothing unmasked.
  const [stop] = g.stops;
  expect(stop.reason).toBe(masked);
  expect(stop.stoppedBy).toEqual([expect.objectContaining({ policy: 'service-alerts', reason: masked })]);
  const notification = runStoppedNotification(stop);
  expect(notification.message).toBe(
    `The run guard cancelled the run: policy "service-alerts" no longer holds: ${masked}`,
  );
  expect(notification.policies).toEqual([expect.objectContaining({ policy: 'service-alerts', reasons: [masked] })]);

  // The log line a person reads.
  const line = g.logs.find((l) => l.startsWith('guard: stopped run 61'));
  expect(line).toBe(
    `guard: stopped run 61 (${stop.experimentKey}, environment ${stop.environment}): policy "service-alerts" no longer holds: ${masked}`,
  );
  for (const text of [JSON.stringify(g.audit), JSON.stringify(g.stops), JSON.stringify(notification), line])
    expect(text).not.toMatch(/"checkout"|service=checkout|=\\?"checkout\\?"/);
});

test("a warn policy's would-stop log line masks the target values as the stop's does", async () => {
  const clock = new TestClock(new Date('2026-01-05T10:00:00Z'));
  const g = guardUnderTest(
    bundleFrom({ 'p.yaml': GUARDED_ALERTS.replace('whileRunning: true', 'whileRunning: true\nmode: warn') }),
    clock,
    {
      fake,
      gather: async () => ({ ok: true, facts: { signals: firing } }),
    },
  );
  runningOnFake(fake, 62);
  g.allow(
    withAttack((s, p) => {
      p.execution.id = 62;
      s.targetExecutions = [structuredClone(CHECKOUT_A)];
      s.totalTargetCount = 1;
    }),
  );
  await g.guard.tick();
  expect(cancels(fake, 62)).toEqual([]);
  const masked = `1 alert matching {severity="critical", service="${REDACTED}"} firing in alertmanager "default": HighLatency{service="${REDACTED}",severity="critical"}`;
  const line = g.logs.find((l) => l.startsWith('guard: policy "service-alerts" would stop run 62'));
  expect(line).toBe(`guard: policy "service-alerts" would stop run 62 (mode warn: reported only): ${masked}`);
});
