import { runCli, tempDirs } from './run-cli';

/**
 * Test suites take the members of Steadybit teams as facts (`teams:`), as `eval --teams` does, so a
 * policy scoped with createdByTeams gets production's answer in a pull request; without them it
 * cannot decide, as the service cannot without the Platform API.
 */
const POLICY = `kind: Policy
name: sre-only-in-prod
match: { environments: [prod] }
exclude: { createdByTeams: [SRE] }
rules:
  - actions: { blocked: ['*'] }
`;

const suite = (cases: string) => `kind: PolicyTestSuite
name: teams
defaults:
  now: "2026-03-02T10:00:00Z"
  teams: { SRE: { members: [{ username: joe, email: joe@example.com }] } }
  payload:
    event: experiment.execution.preflight
    execution:
      id: 42
      experimentKey: SHOP-7
      teamKey: SHOP
      environment: prod
      createdVia: UI
      createdBy: { username: jane, email: jane@example.com, name: Jane }
      steps:
        - actionId: com.steadybit.extension_container.stress_cpu
          actionKind: ATTACK
          parameters: { duration: 30s }
          radius: { targetType: com.steadybit.extension_container.container, percentage: 20 }
cases:
${cases}`;

describe('test suites: teams facts for createdByTeams', () => {
  const dir = tempDirs();

  it('decides on the members given, the case over the defaults, and cannot decide without them', () => {
    const cases = `  - name: jane is not in SRE, so the policy applies
    expect: { decision: deny, denied: [sre-only-in-prod] }
  - name: with jane in SRE (the case's teams over the defaults') the run is excluded
    teams: { SRE: { members: [{ username: jane }] } }
    expect: { decision: allow }
  - name: members that could not be read leave the policy unable to decide
    teams: { SRE: { unknown: "HTTP 503 from the Platform API" } }
    expect: { decision: deny, denied: [sre-only-in-prod], message: "cannot decide whether the run is in exclude.createdByTeams" }
`;
    const res = runCli(['test', dir({ 'p.yaml': POLICY, 'p.test.yaml': suite(cases) })]);
    expect(res.stdout).toContain('3 cases: 3 passed, 0 failed');
    expect(res.code).toBe(0);
  });

  it('a case whose expectation contradicts the teams given fails (the facts are read, not ignored)', () => {
    const cases = `  - name: wrongly expects jane to be excluded by the defaults' members
    expect: { decision: allow }
`;
    const res = runCli(['test', dir({ 'p.yaml': POLICY, 'p.test.yaml': suite(cases) })]);
    expect(res.code).toBe(1);
  });

  it('malformed teams facts are a suite that cannot run as written, naming the part', () => {
    const cases = `  - name: members is not a list
    teams: { SRE: { members: jane } }
    expect: { decision: allow }
`;
    const res = runCli(['test', dir({ 'p.yaml': POLICY, 'p.test.yaml': suite(cases) })]);
    expect(res.stdout + res.stderr).toMatch(/teams/);
    expect(res.code).toBe(2);
  });
});
