import { decide } from '../../src/policy/engine/decide';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { bundleFrom } from '../helpers/bundle-from';
import { NOW, policyDocument } from '../helpers/decide-harness';
import { preflightWith } from '../helpers/fixtures';

const bundle = bundleFrom({ 'p.yaml': policyDocument(`alerts: { matchers: ['severity="critical"'] }`) }, NOW);
/** A critical alert silenced by s-1, which began at `startsAt`. */
const silencedAt = (startsAt: string): SignalFacts => ({
  alertmanager: {
    default: {
      readAt: NOW.toISOString(),
      alerts: [
        {
          labels: { alertname: 'CheckoutDown', severity: 'critical' },
          status: { state: 'suppressed', silencedBy: ['s-1'], inhibitedBy: [] },
        },
      ],
      silences: { 's-1': { startsAt, updatedAt: startsAt } },
    },
  },
});
const decideCreatedAt = (created: string | undefined, signals: SignalFacts) =>
  decide(
    bundle,
    preflightWith((p) => {
      if (created === undefined) delete p.execution.created;
      else p.execution.created = created;
    }),
    { signals },
    NOW,
    { decisionId: 'd-1' },
  );

describe("the alerts rule reads the run's start from execution.created", () => {
  test('a silence from before the run was created hides the alert: the run is allowed', () => {
    expect(decideCreatedAt('2026-01-05T09:59:00.000Z', silencedAt('2026-01-05T09:00:00.000Z')).allowed).toBe(true);
  });

  test('a silence made after the run was created (before its preflight) hides nothing: denied, saying so', () => {
    const d = decideCreatedAt('2026-01-05T09:59:00.000Z', silencedAt('2026-01-05T09:59:30.000Z'));
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(
      'silenced by s-1, made or changed after the run started (2026-01-05T09:59:00.000Z) or not listed, which hides nothing from it',
    );
  });

  test('a run without execution.created: the silenced alert counts', () => {
    expect(decideCreatedAt(undefined, silencedAt('2026-01-05T09:00:00.000Z')).message).toContain(
      'silenced, but the run sends no execution.created (a time)',
    );
  });
});
