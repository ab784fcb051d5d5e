import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import { decide } from '../../src/policy/engine/decide';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { ResolvedSignalNeed } from '../../src/policy/facts/signal-need';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { factGatherer } from '../../src/policy/engine/fact-gatherer';
import type { FactSource } from '../../src/policy/core/fact-source';
import { tempDirs } from '../cli/run-cli';

// Finding: {{environment}} was filled with the raw execution.environment (Steadybit sends a UUID),
// while scopes match by alias and ignore case: the firing production alert never matched (ALLOW).
const EXAMPLES = join(__dirname, '..', '..', 'examples', 'signals');
const ID = '4f1c2a9e-0000-4000-8000-000000000001';
const now = new Date('2026-01-05T10:00:00Z');
const facts = JSON.parse(readFileSync(join(EXAMPLES, 'signals.json'), 'utf8')) as SignalFacts;
const ALIASES = `kind: EnvironmentAliases\naliases:\n  production: [${ID}]\n`;
const UNSCOPED = `kind: Policy
name: no-critical-alerts-anywhere
rules:
  - alerts:
      matchers: ['severity="critical"', 'namespace="{{environment}}"']
`;
const BURN = `kind: Policy
name: burn
rules:
  - prometheus:
      query: 'slo:error_budget_burn_rate:1h{environment="{{environment}}"}'
      denyWhen: "> 14.4"
`;

const dir = tempDirs();
function bundleOf(files: Record<string, string>): PolicyBundle {
  const loaded = loadPolicyDir(dir(files), now);
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  return loaded.bundle;
}
function run(environment: string): PreflightPayload {
  const p = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  p.execution.environment = environment;
  return p;
}
const critical = readFileSync(join(EXAMPLES, 'no-attacks-during-critical-alerts.yaml'), 'utf8');

describe('{{environment}} in signal rules is the environment name the policies know', () => {
  it.each([
    ['the id an alias lists', ID],
    ['the name in another case', 'Production'],
    ['the name as the policy writes it', 'production'],
  ])('a run in %s meets the firing production alert (denied)', (_what, environment) => {
    const bundle = bundleOf({ 'p.yaml': critical, 'aliases.yaml': ALIASES });
    const d = decide(bundle, run(environment), { signals: facts }, now, { decisionId: 'd' });
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('1 alert matching {severity="critical", namespace="production"} firing');
  });

  it('an environment id with no known name cannot decide (never asks about the id), naming it', () => {
    const bundle = bundleOf({ 'p.yaml': UNSCOPED });
    const d = decide(bundle, run('9f1c2a9e-0000-4000-8000-000000000009'), { signals: facts }, now, { decisionId: 'd' });
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(
      "cannot decide: the alert matchers need {{environment}} but no name is known for the run's environment 9f1c2a9e-0000-4000-8000-000000000009",
    );
  });

  it('gathering fills the query as the rule reads it, so the live answer is found (one function for both)', async () => {
    const bundle = bundleOf({ 'p.yaml': BURN, 'aliases.yaml': ALIASES });
    const asked: ResolvedSignalNeed[][] = [];
    const source = signalFactSource(async (needs) => {
      asked.push([...needs]);
      return facts;
    });
    const gathered = await source.gather(bundle.needs, run(ID), now, bundle);
    expect(asked).toEqual([
      [{ kind: 'prometheus', source: 'default', query: 'slo:error_budget_burn_rate:1h{environment="production"}' }],
    ]);
    if (!gathered.ok) throw new Error('not gathered');
    const d = decide(bundle, run(ID), gathered.facts, now, { decisionId: 'd' });
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('returned {environment="production"} 16.2 > 14.4');
  });

  // With the Platform API, Steadybit names the id (Facts.environments): no alias needed.
  const NAMED_BY_STEADYBIT = '7a0e3c1d-0000-4000-8000-000000000007';
  const platform: FactSource = {
    name: 'Steadybit Platform API',
    kinds: ['environment-names'],
    gather: async () => ({ ok: true, facts: { environments: { [NAMED_BY_STEADYBIT]: { name: 'production' } } } }),
  };

  it('a signal rule with {{environment}} needs the environment names (so the Platform API is asked)', () => {
    expect(bundleOf({ 'p.yaml': UNSCOPED }).needs).toContainEqual({ kind: 'environment-names' });
    expect(bundleOf({ 'p.yaml': BURN }).needs).toContainEqual({ kind: 'environment-names' });
  });

  it('an id the Steadybit Platform API names is filled with that name (decided from the facts)', () => {
    const bundle = bundleOf({ 'p.yaml': UNSCOPED });
    const d = decide(
      bundle,
      run(NAMED_BY_STEADYBIT),
      { environments: { [NAMED_BY_STEADYBIT]: { name: 'production' } }, signals: facts },
      now,
      { decisionId: 'd' },
    );
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('1 alert matching {severity="critical", namespace="production"} firing');
  });

  it('gathering asks Prometheus about the Steadybit name: the names are gathered first, then the signals', async () => {
    const bundle = bundleOf({ 'p.yaml': BURN });
    const asked: ResolvedSignalNeed[][] = [];
    const signals = signalFactSource(async (needs) => {
      asked.push([...needs]);
      return facts;
    });
    const gathered = await factGatherer([signals, platform])(bundle, run(NAMED_BY_STEADYBIT), now);
    expect(asked).toEqual([
      [{ kind: 'prometheus', source: 'default', query: 'slo:error_budget_burn_rate:1h{environment="production"}' }],
    ]);
    if (!gathered.ok) throw new Error('not gathered');
    expect(gathered.facts.environments).toEqual({ [NAMED_BY_STEADYBIT]: { name: 'production' } });
    const d = decide(bundle, run(NAMED_BY_STEADYBIT), gathered.facts, now, { decisionId: 'd' });
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('returned {environment="production"} 16.2 > 14.4');
  });
});
