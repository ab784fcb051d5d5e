import { join } from 'node:path';
import { decide } from '../../src/policy/engine/decide';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { preflightPayload, preflightWith } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';

/** Every quarter hour of one week (Monday 2026-01-05 00:00 UTC onwards), plus a weekend at the end of a year. */
const instants = [
  ...Array.from({ length: 7 * 24 * 4 }, (_, i) => new Date(Date.UTC(2026, 0, 5) + i * 15 * 60_000)),
  ...Array.from({ length: 3 * 24 }, (_, i) => new Date(Date.UTC(2026, 11, 24) + i * 60 * 60_000)),
];

describe('the README example has the same outcome at any time on the bundled policies', () => {
  const loaded = loadPolicyDir(join(ROOT, 'policies'));
  if (!loaded.ok) throw new Error(`policies/ does not load: ${JSON.stringify(loaded.problems)}`);
  const { bundle } = loaded;

  test("Steadybit's spec example run is allowed at every instant", () => {
    const denied = instants
      .map((now) => ({ now, decision: decide(bundle, preflightPayload(), {}, now, { decisionId: 'd' }) }))
      .filter(({ decision }) => !decision.allowed)
      .map(({ now, decision }) => `${now.toISOString()}: ${decision.message}`);
    expect(denied).toEqual([]);
  });

  test('the same run in payments-prod is denied by blocked-environments at every instant', () => {
    const payload = preflightWith((p) => {
      p.execution.environment = 'payments-prod';
    });
    const notDenied = instants.filter((now) => {
      const d = decide(bundle, payload, {}, now, { decisionId: 'd' });
      return d.allowed || !d.message.includes('[blocked-environments] environment payments-prod is blocked');
    });
    expect(notDenied).toEqual([]);
  });
});
