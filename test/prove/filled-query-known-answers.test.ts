import type { Witness } from '../../src/prove/analysis';

import { diffPairs, evalWitness, sampleOf, setDirs, proveDir } from './prove-sets';

/**
 * Queries that fill placeholders from the run (docs/decisions/0040-filled-queries-as-fact-classes.md):
 * the witness answers the query as the engine fills it for the witness's own run.
 */
const BY_ENV = 'slo:burn_rate:1h{env="{{environment}}"}';

describe('diff over queries that fill placeholders from the run', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);
  const prom = (name: string, query: string, spec: string) => `kind: Policy
name: ${name}
rules:
  - prometheus: { query: '${query}', ${spec} }
`;

  it("a {{environment}} threshold raised: newly allowed, the witness answering its own environment's query between the thresholds", async () => {
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 2"') },
      { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 5"') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const e = w.payload.execution;
    const env = e.environment ?? e.overrides?.environment;
    expect(env).toBeDefined();
    const value = Number(sampleOf(w, `slo:burn_rate:1h{env="${env}"}`));
    expect(value).toBeGreaterThan(2);
    expect(value).toBeLessThanOrEqual(5);
    await roundTrip(b, p, w);
  });

  it("a {{team}} query: newly allowed, the witness answering its own team's query", async () => {
    const byTeam = 'errors:rate5m{team="{{team}}"}';
    const { b, p, r } = pair(
      { 'p.yaml': prom('errors', byTeam, 'denyWhen: ">= 1"') },
      { 'p.yaml': prom('errors', byTeam, 'denyWhen: ">= 10"') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const value = Number(sampleOf(w, `errors:rate5m{team="${w.payload.execution.teamKey}"}`));
    expect(value).toBeGreaterThanOrEqual(1);
    expect(value).toBeLessThan(10);
    await roundTrip(b, p, w);
  });

  it("an {{experimentKey}} and {{executionId}} query dropped: newly allowed, the witness answering its own run's query", async () => {
    const byRun = 'probe_failed{experiment="{{experimentKey}}",run="{{executionId}}"}';
    const { b, p, r } = pair(
      { 'p.yaml': prom('probe', byRun, 'onEmpty: deny') },
      { 'p.yaml': prom('probe', byRun, '') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    const { experimentKey, id } = w.payload.execution;
    const answer = w.facts.signals.prometheus?.default?.[`probe_failed{experiment="${experimentKey}",run="${id}"}`];
    expect(answer).toEqual({ resultType: 'vector', result: [] });
    await roundTrip(b, p, w);
  });

  it('an environment id no name is known for is a class of its own: the rule cannot decide there, whatever the answer', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 2"') },
      { 'p.yaml': prom('burn', 'max(slo:burn_rate:1h)', 'denyWhen: "> 2"') },
    );
    expect(r.unknown).toEqual([]);
    const w = r.witnesses.find((x) => x.kind === 'newly-allowed') as Witness;
    // Steadybit sends environment ids; with no name for it, the query cannot be filled.
    expect(w.base?.message).toMatch(/no name is known for the run's environment/);
    expect(sampleOf(w, 'max(slo:burn_rate:1h)')).toBeUndefined();
    await roundTrip(b, p, w);
  });

  const alerts = (matchers: string) => `kind: Policy
name: alerts
rules:
  - alerts: { matchers: [${matchers}] }
`;

  it("an alerts matcher with {{team}} loosened: newly denied by an alert carrying the run's own team", async () => {
    const { b, p, r } = pair(
      { 'p.yaml': alerts(`'severity="critical"', 'team="{{team}}"'`) },
      { 'p.yaml': alerts(`'severity=~"critical|page"', 'team="{{team}}"'`) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const w = r.witnesses[0];
    const answer = w.facts.signals.alertmanager?.default;
    expect(answer && 'alerts' in answer ? answer.alerts.map((a) => a.labels) : []).toEqual([
      { severity: 'page', team: w.payload.execution.teamKey },
    ]);
    await roundTrip(b, p, w);
  });

  it('matchers on one label that fill {{team}} and also write a team: unknown, naming the label', () => {
    const { r } = pair(
      {
        'p.yaml': alerts(`'team="{{team}}"'`),
        'q.yaml': alerts(`'team="payments"'`).replace('name: alerts', 'name: pay'),
      },
      {
        'p.yaml': alerts(`'team="{{team}}"', 'severity="page"'`),
        'q.yaml': alerts(`'team="payments"'`).replace('name: alerts', 'name: pay'),
      },
    );
    expect(r.unknown.join('\n')).toMatch(/matchers on label team fill \{\{team\}\} and also write payments/);
  });

  it('an alerts matcher that fills {{environment}} stays beyond the analysis: unknown, naming the rule', () => {
    const { r } = pair(
      { 'p.yaml': alerts(`'namespace="{{environment}}"'`) },
      { 'p.yaml': alerts(`'namespace="{{environment}}"', 'severity="page"'`) },
    );
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(
      /alerts rules\[0\]\.alerts changed and is beyond the analysis: .*\{\{environment\}\}/,
    );
  });

  it('identical sets with queries filled per run: no difference', () => {
    const set = { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 2"'), 'q.yaml': prom('t', 'x{team="{{team}}"}', '') };
    const { r } = pair(set, set);
    expect(r).toMatchObject({ witnesses: [], unknown: [] });
  });

  it('an unchanged {{environment}} query decides with the names the set spells: a changed rule gets its witness', async () => {
    const blocked = (envs: string) => `kind: Policy
name: blocked
match: { environments: [Prod] }
rules:
  - environments: { blocked: [${envs}] }
`;
    const burn = prom('burn', BY_ENV, 'denyWhen: "> 2"');
    const { b, p, r } = pair(
      { 'b.yaml': blocked('Prod, legacy'), 'p.yaml': burn },
      { 'b.yaml': blocked('legacy'), 'p.yaml': burn },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    // The run in prod (sent in any case) asks the query as the set spells the environment.
    const w = r.witnesses[0];
    expect(Number(sampleOf(w, 'slo:burn_rate:1h{env="Prod"}') ?? 0)).toBeLessThanOrEqual(2);
    await roundTrip(b, p, w);
  });

  it('a literal query a filled one can meet: unknown, naming both (a witness found is still decided by both sets)', async () => {
    const literal = prom('prod-burn', 'slo:burn_rate:1h{env="prod"}', 'denyWhen: "> 1"');
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 2"'), 'l.yaml': literal },
      { 'p.yaml': prom('burn', BY_ENV, 'denyWhen: "> 5"'), 'l.yaml': literal },
    );
    expect(r.unknown.join('\n')).toMatch(/can be filled to the same text as slo:burn_rate:1h\{env="prod"\}/);
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('sets that spell environment names differently fill {{environment}} differently: unknown, never no difference', () => {
    const scoped = (env: string) => `kind: Policy
name: burn
match: { environments: [${env}] }
rules:
  - prometheus: { query: '${BY_ENV}', denyWhen: "> 2" }
`;
    const { r } = pair({ 'p.yaml': scoped('Prod') }, { 'p.yaml': scoped('prod') });
    expect(r.unknown.join('\n')).toMatch(/spell environment names differently/);
  });

  it('a query filled from the targets stays beyond the analysis: unknown, naming the placeholder', () => {
    const byTarget = 'up{deployment="{{target.k8s.deployment}}"}';
    const { r } = pair({ 'p.yaml': prom('up', byTarget, 'denyWhen: "< 1"') }, { 'p.yaml': prom('up', byTarget, '') });
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(
      /up rules\[0\]\.prometheus changed and is beyond the analysis: .*target\.k8s\.deployment/,
    );
  });
});

describe('prove over queries that fill placeholders from the run', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const prove = (threshold: string) => {
    const dir = dirs.write({
      'p.yaml': `kind: Policy
name: burn
rules:
  - prometheus: { query: '${BY_ENV}', denyWhen: "${threshold}" }
`,
      'p.property.yaml': `kind: PolicyProperty
name: no-run-while-its-environment-burns
never:
  rules:
    - prometheus: { query: '${BY_ENV}', denyWhen: "> 10" }
`,
    });
    const [result] = proveDir(dir);
    return { dir, result };
  };

  it("no run while its environment's burn rate is over 10: proven by a set that denies over 5", () => {
    expect(prove('> 5').result).toMatchObject({ status: 'proven' });
  });

  it("a set that denies only over 20: a counterexample answering its environment's query between 10 and 20", async () => {
    const { dir, result } = prove('> 20');
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    const e = w.payload.execution;
    const value = Number(sampleOf(w, `slo:burn_rate:1h{env="${e.environment ?? e.overrides?.environment}"}`));
    expect(value).toBeGreaterThan(10);
    expect(value).toBeLessThanOrEqual(20);
    expect(await evalWitness(dir, w)).toBe(true);
  });
});
