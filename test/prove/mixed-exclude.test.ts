import { setDirs, proveDir } from './prove-sets';

// An exclude naming a team and a step kind leaves out those steps of that team's runs only (fields
// are AND-ed, docs/policies.md "Scope"). The engine once left those steps out of every team's runs,
// and prove, deciding with it, called a property proven that another team's CHECK run broke.
const BLOCK_BUT_CHECKS = `kind: Policy
name: block-pp-but-checks
match: { environments: [payments-prod] }
exclude: { actionKinds: [CHECK] }
rules:
  - environments: { blocked: [payments-prod] }
`;
const ONLY_SHOP_CHECKS = `kind: PolicyProperty
name: only-shop-checks-in-pp
never:
  match: { environments: [payments-prod] }
  exclude: { teams: [SHOP], actionKinds: [CHECK] }
`;

describe('prove with an exclude of a team and a step kind', () => {
  const dirs = setDirs();
  afterAll(() => dirs.cleanup());
  const prove = (policy: string) => {
    const dir = dirs.write({ 'p.yaml': policy, 'x.property.yaml': ONLY_SHOP_CHECKS });
    return proveDir(dir)[0];
  };

  test("a set letting every team's CHECK runs through breaks it: a counterexample of another team's CHECK run", () => {
    const r = prove(BLOCK_BUT_CHECKS);
    expect(r.status).toBe('counterexample');
    const run = r.witness?.payload.execution;
    expect(run?.teamKey?.toUpperCase()).not.toBe('SHOP');
    expect(run?.steps?.map((s) => s.actionKind)).toEqual(['CHECK']);
  });

  test("a set excluding only SHOP's CHECK steps proves it", () => {
    expect(
      prove(BLOCK_BUT_CHECKS.replace('{ actionKinds: [CHECK] }', '{ teams: [SHOP], actionKinds: [CHECK] }')).status,
    ).toBe('proven');
  });
});
