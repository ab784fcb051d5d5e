import { diffSets } from '../../src/prove/analysis';
import { GAMEDAY_EXCEPTION, perDeploymentPolicy } from '../helpers/policy-sets/everyday-edits';
import { expectDecided, NOW, setDirs, setOf } from './prove-sets';

/**
 * Edits a reviewer makes to the bundled set every day, each with the answer it must give
 * (docs/decisions/0044): the class it newly allows or denies found, with a witness both whole sets
 * decide so, no rule beyond the analysis blamed, and no search stopped at the class cap. Before
 * 0044 the alias edit marked every rule changed, and the exception and the perGroup cap stopped at
 * the cap (unknown).
 */
const NEW_ID = '4f1c2a9e-0000-4000-8000-000000000003';
const ALIASES = `kind: EnvironmentAliases
aliases:
  production:
    - 4f1c2a9e-0000-4000-8000-000000000001
    - ${NEW_ID}
  payments-prod:
    - 4f1c2a9e-0000-4000-8000-000000000002
`;
const PRODUCTION_RULES = [
  'change-freeze-calendar rules[0].timeWindow',
  'production-business-hours rules[0].timeWindow',
  'kubernetes-namespace-guard rules[0].blastRadius',
  'kubernetes-namespace-guard rules[1].targetAttributes',
  'production-guardrails rules[0].actions',
  'production-guardrails rules[1].parameters',
  'production-guardrails rules[2].targets',
];

describe('diff: everyday edits of the bundled set', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = (baseFiles: Record<string, string>, proposedFiles: Record<string, string>) => {
    const b = setOf(dirs.bundledWith(baseFiles));
    const p = setOf(dirs.bundledWith(proposedFiles));
    const r = diffSets(b, p, NOW);
    expectDecided(r, b, p);
    return r;
  };

  it('an id added to the production alias changes only the rules that list production, each newly denying it', () => {
    const r = diff({}, { 'environment-aliases.yaml': ALIASES });
    expect(r.changedRules.base).toEqual(PRODUCTION_RULES);
    expect(r.changedRules.proposed).toEqual(PRODUCTION_RULES);
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.rule && `${w.rule.policy} ${w.rule.path}`)).toEqual(PRODUCTION_RULES);
    for (const w of r.witnesses) {
      expect(w.kind).toBe('newly-denied');
      const { environment, overrides } = w.payload.execution;
      expect([environment, overrides?.environment]).toContain(NEW_ID);
    }
  });

  it('an exception to the namespace guard newly allows its team there, and denies nothing newly', () => {
    const r = diff({}, { 'guard-exception.yaml': GAMEDAY_EXCEPTION });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => [w.kind, w.rule?.path])).toEqual([
      ['newly-allowed', 'rules[0].blastRadius'],
      ['newly-allowed', 'rules[1].targetAttributes'],
    ]);
    for (const w of r.witnesses) {
      expect(w.payload.execution.teamKey).toBe('PLATFORM');
      expect([w.base?.allowed, w.proposed?.allowed]).toEqual([false, true]);
    }
  });

  it('a perGroup cap raised from 2 to 3 newly allows three pods of one deployment in production', () => {
    const r = diff(
      { 'per-deployment.yaml': perDeploymentPolicy(2) },
      { 'per-deployment.yaml': perDeploymentPolicy(3) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const [w] = r.witnesses;
    const byDeployment = new Map<string, Set<string>>();
    for (const t of w.payload.execution.steps?.[0]?.targetExecutions ?? [])
      for (const a of t.attributes ?? [])
        if (a.key === 'k8s.deployment')
          byDeployment.set(a.value, (byDeployment.get(a.value) ?? new Set()).add(t.name ?? ''));
    expect([...byDeployment.values()].map((names) => names.size)).toEqual([3]);
    expect(w.base?.message).toMatch(/\[production-per-deployment\].*more than the 2 allowed/);
  });
});
