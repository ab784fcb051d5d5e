import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FactSource } from '../../src/policy/core/fact-source';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import type { PolicyResult, PreflightPayload } from '../../src/policy/core/decision';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';

// Issue 23 item 4: an explained decision shows the query, its result and when it was read, also for
// a signal rule that passed (before: only "passed: rules[0].alerts").
const EXAMPLES = join(__dirname, '..', '..', 'examples', 'signals');
const facts = JSON.parse(readFileSync(join(EXAMPLES, 'signals.json'), 'utf8')) as SignalFacts;
const fixedSignals: FactSource = {
  name: 'signals',
  kinds: ['alerts', 'prometheus'],
  gather: async () => ({ ok: true, facts: { signals: facts } }),
};

function run(environment: string): PreflightPayload {
  const p = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  p.execution.environment = environment;
  return p;
}

describe('POST /preflight?explain=true lists what each signal rule read, pass or deny', () => {
  const loaded = loadPolicyDir(EXAMPLES, new Date('2026-01-05T10:00:00Z'));
  if (!loaded.ok) throw new Error('examples do not load');
  const { app } = testApp(loaded.bundle, { factSources: [fixedSignals] });
  const resultOf = (body: { explanation: { results: PolicyResult[] } }, policy: string) =>
    body.explanation.results.find((r) => r.policy === policy);

  it('a passing alerts rule: the matchers as filled, the result and when it was read', async () => {
    const res = await signedRequest(app, run('staging'), { query: { explain: 'true' } });
    expect(res.status).toBe(200);
    const r = resultOf(res.body, 'no-attacks-during-critical-alerts');
    expect(r?.result).toBe('pass');
    expect(r?.signals).toEqual([
      {
        source: 'alertmanager "default"',
        query: '{severity="critical", namespace="staging"}',
        result: '0 matching alerts of 1',
        readAt: '2026-01-05T09:59:58.000Z',
      },
    ]);
  });

  it('a denying prometheus rule: the query, the samples and when', async () => {
    const res = await signedRequest(app, run('production'), { query: { explain: 'true' } });
    expect(res.status).toBe(403);
    expect(resultOf(res.body, 'error-budget-burn')?.signals).toEqual([
      {
        source: 'prometheus "default"',
        query: 'slo:error_budget_burn_rate:1h{environment="production"}',
        result: '{environment="production"} 16.2',
        readAt: '2026-01-05T09:59:58.000Z',
      },
    ]);
  });

  it('policies without signal rules say nothing of signals', async () => {
    const res = await signedRequest(app, run('staging'), { query: { explain: 'true' } });
    expect(resultOf(res.body, 'emergency-stop')?.signals).toBeUndefined();
  });
});
