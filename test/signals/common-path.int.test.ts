import { join } from 'node:path';
import type { FactSource } from '../../src/policy/core/fact-source';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { STARTER_POLICY_DIR } from '../../src/policy/loading/starter-policies';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import type { PolicyBundle } from '../../src/policy/core/compiled';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'signals');

function loaded(dir: string): PolicyBundle {
  const result = loadPolicyDir(dir, new Date('2026-01-05T10:00:00Z'));
  if (!result.ok) throw new Error(result.problems.map((p) => `${p.file}: ${p.message}`).join('\n'));
  return result.bundle;
}

/** The service's signal fact source with no source configured, counting what it is asked. */
function countingSignalSource(): { source: FactSource; asked: () => number } {
  const inner = signalFactSource(createSignalGatherer({ config: { sources: [], cacheTtlMs: 10000, timeoutMs: 1000 } }));
  let asked = 0;
  return {
    source: {
      ...inner,
      gather: (needs, payload, now) => {
        asked++;
        return inner.gather(needs, payload, now);
      },
    },
    asked: () => asked,
  };
}

const production = preflightWith((p) => {
  p.execution.environment = 'production';
});

// docs/decisions/0016-signal-starter-policies.md: the signal starter policies are examples you enable,
// not part of the bundled default.
describe('signal rules stay off the common path', () => {
  it('the bundled starter policies declare no signal need, so a preflight asks no signal source', async () => {
    const bundle = loaded(STARTER_POLICY_DIR);
    expect(bundle.needs.filter((n) => n.kind === 'alerts' || n.kind === 'prometheus')).toEqual([]);
    const counting = countingSignalSource();
    const { app } = testApp(bundle, { factSources: [counting.source] });
    const res = await signedRequest(app, production, { query: { explain: 'true' } });
    expect(counting.asked()).toBe(0);
    expect(JSON.stringify(res.body)).not.toMatch(/alertmanager|prometheus "/);
  });

  it('the signal starter policies, enabled on a machine without Alertmanager and Prometheus, deny every run they match and say how to configure the source', async () => {
    const counting = countingSignalSource();
    const { app } = testApp(loaded(EXAMPLES), { factSources: [counting.source] });
    const res = await signedRequest(app, production);
    expect(counting.asked()).toBe(1);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain(
      '[no-attacks-during-critical-alerts] cannot decide: the alerts of alertmanager "default" could not be read (alertmanager "default" is not configured (docs/signals.md: ALERTMANAGER_URL or SIGNAL_SOURCES_FILE))',
    );
    expect(res.body.message).toContain(
      '[error-budget-burn] cannot decide: query slo:error_budget_burn_rate:1h{environment="production"} on prometheus "default" could not be read (prometheus "default" is not configured',
    );
  });
});
