import { join } from 'node:path';
import { createMetrics } from '../../src/observability/metrics';
import { reloadReport } from '../../src/observability/reload-report';
import {
  builtInPolicies,
  EMERGENCY_STOP_POLICY,
  policiesFromFiles,
  withBuiltIns,
} from '../../src/policy/compile/built-in-policies';
import { decide } from '../../src/policy/engine/decide';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { createPolicyReloader } from '../../src/policy/runtime/policy-reloader';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import { capturingLogger } from '../helpers/capturing-logger';
import { DECISION_TIMES, decisionPayloads } from '../helpers/decision-cases';
import { freshFacts } from '../helpers/policy-sets/fresh-facts';

/**
 * The service's reloader is given the built-in policies and stores the set served, assembled once
 * with them (docs/decisions/0032): the same set, deciding the same, as the loaded set extended by
 * withBuiltIns (what the routes and the guard assembled again at their first use before).
 */
describe('the set served is assembled once, with the built-in policies', () => {
  const dir = join(__dirname, '..', '..', 'policies');
  const builtIns = builtInPolicies('enforce');
  const now = new Date(DECISION_TIMES[0]);

  const reloaded = () => {
    const store = new PolicyStore();
    const metrics = createMetrics({ defaultMetrics: false });
    const { logger, lines } = capturingLogger();
    const events = reloadReport({ metrics, logger, builtIns: builtIns.map((p) => p.name) });
    const reloader = createPolicyReloader({ dir, store, events, builtIns, clock: () => now });
    expect(reloader.reload('startup')).toMatchObject({ result: 'success' });
    return { store, metrics, lines };
  };

  it('holds the built-in policies first and counts the policies from files apart', async () => {
    const { store, metrics, lines } = reloaded();
    const loaded = loadPolicyDir(dir, now);
    if (!loaded.ok) throw new Error('the bundled policies do not load');
    const served = store.current();
    expect(served?.policies[0].name).toBe(EMERGENCY_STOP_POLICY);
    expect(served && policiesFromFiles(served)).toBe(loaded.bundle.policies.length);
    expect((await metrics.policiesLoaded.get()).values[0].value).toBe(loaded.bundle.policies.length);
    expect(lines.find((l) => l.message === 'policy set loaded')).toMatchObject({
      policies: loaded.bundle.policies.length + 1,
      policiesFromFiles: loaded.bundle.policies.length,
      builtInPolicies: [EMERGENCY_STOP_POLICY],
    });
  });

  it('decides every payload as the loaded set with withBuiltIns does, byte for byte', async () => {
    const served = reloaded().store.current();
    const loaded = loadPolicyDir(dir, now);
    if (!served || !loaded.ok) throw new Error('the bundled policies do not load');
    const extended = withBuiltIns(loaded.bundle, builtIns);
    expect(served.policies.map((p) => [p.name, p.rules.map((r) => r.answerSlot)])).toEqual(
      extended.policies.map((p) => [p.name, p.rules.map((r) => r.answerSlot)]),
    );
    expect([served.revision, served.sharedChecks, served.needs]).toEqual([
      extended.revision,
      extended.sharedChecks,
      extended.needs,
    ]);
    const payloads = decisionPayloads();
    const facts = await freshFacts(extended, payloads, now);
    const decisions = (bundle: typeof served) =>
      payloads.map((p, i) =>
        JSON.stringify(decide(bundle, p.payload, facts[i], now, { decisionId: 'same', fullScan: true })),
      );
    expect(decisions(served)).toEqual(decisions(extended));
  });
});
