import type { Witness } from '../../src/prove/analysis';

import { diffPairs, evalWitness, sampleOf, setDirs, proveDir } from './prove-sets';

const QUERY = 'slo:burn_rate:1h{service="checkout"}';

describe('diff over the signals prometheus and alerts rules read', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);

  const prom = (name: string, spec: string) => `kind: Policy
name: ${name}
rules:
  - prometheus: { query: '${QUERY}', ${spec} }
`;

  it('a prometheus threshold raised: newly allowed, the witness answering a value between the thresholds', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', 'denyWhen: "> 2"') },
      { 'p.yaml': prom('burn', 'denyWhen: "> 5"') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const value = Number(sampleOf(r.witnesses[0], QUERY));
    expect(value).toBeGreaterThan(2);
    expect(value).toBeLessThanOrEqual(5);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('two rules reading the same query share its answer: newly allowed only where both let it through', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', 'denyWhen: "> 2"') },
      { 'p.yaml': prom('burn', 'denyWhen: "> 5"'), 'q.yaml': prom('burn-fast', 'denyWhen: ">= 3"') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const value = Number(sampleOf(r.witnesses[0], QUERY));
    expect(value).toBeGreaterThan(2);
    expect(value).toBeLessThan(3);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('onUnavailable: allow: newly allowed when the source does not answer (the engine fails closed without it)', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': prom('burn', 'denyWhen: "> 2"') },
      { 'p.yaml': prom('burn', 'denyWhen: "> 2", onUnavailable: allow') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].facts.signals.prometheus?.default?.[QUERY]).toMatchObject({ error: expect.any(String) });
    await roundTrip(b, p, r.witnesses[0]);
  });

  it("a query that fills {{target.<key>}} from the run's targets is beyond the analysis: unknown, naming the rule", () => {
    const templated = (t: string) => `kind: Policy
name: burn
rules:
  - prometheus: { query: 'slo:burn_rate:1h{deployment="{{target.k8s.deployment}}"}', denyWhen: "${t}" }
`;
    const { r } = pair({ 'p.yaml': templated('> 2') }, { 'p.yaml': templated('> 5') });
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(
      /burn rules\[0\]\.prometheus changed and is beyond the analysis: .*\{\{target\.k8s\.deployment\}\}/,
    );
  });

  const alerts = (spec: string) => `kind: Policy
name: alerts
rules:
  - alerts: { ${spec} }
`;

  it('an alerts matcher loosened: newly denied where an alert matches only the looser matchers', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': alerts(`matchers: ['severity="critical"', 'team="payments"']`) },
      { 'p.yaml': alerts(`matchers: ['severity=~"critical|page"']`) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const answer = r.witnesses[0].facts.signals.alertmanager?.default;
    expect(answer && 'alerts' in answer ? answer.alerts : []).toHaveLength(1);
    const labels = answer && 'alerts' in answer ? answer.alerts[0].labels : {};
    expect(['critical', 'page']).toContain(labels.severity);
    expect(labels.severity === 'page' || labels.team !== 'payments').toBe(true);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('includeSilenced dropped: newly allowed for an alert silenced before the run started', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': alerts(`matchers: 'severity="critical"', includeSilenced: true`) },
      { 'p.yaml': alerts(`matchers: 'severity="critical"'`) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    expect(w.payload.execution.created).toBeDefined();
    expect(w.facts.signals.alertmanager?.default).toMatchObject({
      alerts: [{ labels: { severity: 'critical' }, status: { silencedBy: ['prove-silence'] } }],
    });
    await roundTrip(b, p, w);
  });

  it('an unchanged signal rule no longer makes a changed rule unknown: its witness lets the signal through', async () => {
    const blocked = (envs: string) => `kind: Policy
name: blocked
rules:
  - environments: { blocked: [${envs}] }
`;
    const slo = prom('burn', 'denyWhen: "> 2"');
    const { b, p, r } = pair(
      { 'p.yaml': blocked('payments-prod, legacy'), 's.yaml': slo },
      { 'p.yaml': blocked('payments-prod'), 's.yaml': slo },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(Number(sampleOf(r.witnesses[0], QUERY) ?? 0)).toBeLessThanOrEqual(2);
    await roundTrip(b, p, r.witnesses[0]);
  });
});

describe('prove over the signals', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const prove = (set: string, never: string) => {
    const dir = dirs.write({
      'p.yaml': `kind: Policy
name: burn
rules:
  - prometheus: { query: '${QUERY}', denyWhen: "${set}" }
`,
      'p.property.yaml': `kind: PolicyProperty
name: no-run-while-burning
never:
  rules:
${never}
`,
    });
    const [result] = proveDir(dir);
    return { dir, result };
  };
  const never = (t: string) => `    - prometheus: { query: '${QUERY}', denyWhen: "${t}" }`;

  it('no run while the burn rate is over 10: proven by a set that denies over 5 (and, as the property, where it cannot read it)', () => {
    expect(prove('> 5', never('> 10')).result).toMatchObject({ status: 'proven' });
  });

  it('a set that denies only over 20: a counterexample answering a value between 10 and 20, decided by eval', async () => {
    const { dir, result } = prove('> 20', never('> 10'));
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    const value = Number(sampleOf(w, QUERY));
    expect(value).toBeGreaterThan(10);
    expect(value).toBeLessThanOrEqual(20);
    expect(await evalWitness(dir, w)).toBe(true);
  });

  it('a property whose own alerts matcher is a regular expression the analysis does not split is unknown', () => {
    const { result } = prove('> 5', `    - alerts: { matchers: 'severity=~"crit.*"' }`);
    expect(result.status).toBe('unknown');
    expect(result.reason).toMatch(/regular expression/);
  });
});
