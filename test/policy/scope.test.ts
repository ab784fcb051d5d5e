import { decideAt } from '../helpers/decide-harness';
import type { PreflightPayload } from '../../src/policy/core/decision';

const aliases = `
kind: EnvironmentAliases
aliases:
  production: [32009f6e-ff90-47a5-8daa-80f4bb7ae591]
`;
const NOW = '2026-01-05T10:00:00Z';
/** A policy that always denies, so its result shows only whether the scope let it apply. */
const scoped = (scope: string) => ({
  'a.yaml': aliases,
  'p.yaml': `kind: Policy\nname: scoped\n${scope}\nrules:\n  - condition: {deny: true, reason: in scope}\n`,
});
const noop = () => undefined;

describe('scope: match and exclude decide which runs and steps a policy applies to', () => {
  test.each<[string, string, (p: PreflightPayload) => void, 'deny' | 'skipped', string]>([
    [
      'match.teams names the team and the list',
      'match: {teams: [PAY, OPS]}',
      noop,
      'skipped',
      'team ADM not in match.teams (PAY, OPS)',
    ],
    ['match.teams matches case-insensitively', 'match: {teams: [adm]}', noop, 'deny', 'in scope'],
    ['match.environments by alias', 'match: {environments: [production]}', noop, 'deny', 'in scope'],
    [
      'match.environments names the id and its alias',
      'match: {environments: [staging]}',
      noop,
      'skipped',
      'environment 32009f6e-ff90-47a5-8daa-80f4bb7ae591 (production) not in match.environments (staging)',
    ],
    ['match.experimentKeys by glob', 'match: {experimentKeys: ["ADM-*"]}', noop, 'deny', 'in scope'],
    [
      'match.experimentKeys miss',
      'match: {experimentKeys: ["SHOP-*"]}',
      noop,
      'skipped',
      'experiment key ADM-1 not in match.experimentKeys (SHOP-*)',
    ],
    [
      'match.createdVia miss',
      'match: {createdVia: [SCHEDULE, API]}',
      noop,
      'skipped',
      'createdVia UI not in match.createdVia (SCHEDULE, API)',
    ],
    [
      'a field the payload lacks never narrows match',
      'match: {teams: [PAY]}',
      (p) => {
        delete p.execution.teamKey;
      },
      'deny',
      'in scope',
    ],
    [
      'match fields are AND-ed',
      'match: {teams: [ADM], createdVia: [API]}',
      noop,
      'skipped',
      'createdVia UI not in match.createdVia (API)',
    ],
    [
      'exclude.teams names the value',
      'exclude: {teams: [ADM]}',
      noop,
      'skipped',
      'excluded: team ADM in exclude.teams (ADM)',
    ],
    ['exclude needs every field to match', 'exclude: {teams: [ADM], createdVia: [API]}', noop, 'deny', 'in scope'],
    [
      'a field the payload lacks never excludes',
      'exclude: {teams: [ADM]}',
      (p) => {
        delete p.execution.teamKey;
      },
      'deny',
      'in scope',
    ],
    ['match.actionIds glob keeps the matching step', 'match: {actionIds: ["*stress_*"]}', noop, 'deny', 'in scope'],
    [
      'match.actionIds without a matching step',
      'match: {actionIds: ["*shutdown*"]}',
      noop,
      'skipped',
      "no action step matches match.actionIds (*shutdown*); the run's action steps: com.steadybit.extension_container.stress_cpu (ATTACK)",
    ],
    [
      'match.actionKinds without a matching step',
      'match: {actionKinds: [CHECK]}',
      noop,
      'skipped',
      'no action step matches match.actionKinds (CHECK)',
    ],
    [
      'exclude.actionKinds removing every step',
      'exclude: {actionKinds: [ATTACK]}',
      noop,
      'skipped',
      'every action step in scope is excluded by exclude.actionKinds (ATTACK)',
    ],
    // Run fields and step fields of one exclude are AND-ed: those steps, in those runs only.
    [
      "exclude with a team and a step kind leaves another team's steps of that kind in scope",
      'exclude: {teams: [SHOP], actionKinds: [ATTACK]}',
      noop,
      'deny',
      'in scope',
    ],
    [
      "exclude with a team and a step kind leaves the team's other steps in scope",
      'exclude: {teams: [ADM], actionKinds: [CHECK]}',
      noop,
      'deny',
      'in scope',
    ],
    [
      "exclude with a team and a step kind removes the team's steps of that kind",
      'exclude: {teams: [ADM], actionKinds: [ATTACK]}',
      noop,
      'skipped',
      'every action step in scope is excluded by exclude.actionKinds (ATTACK)',
    ],
    [
      'exclude with a team the payload lacks and a step kind excludes nothing',
      'exclude: {teams: [ADM], actionKinds: [ATTACK]}',
      (p) => {
        delete p.execution.teamKey;
      },
      'deny',
      'in scope',
    ],
    [
      'exclude.actionIds removing one of two steps',
      'exclude: {actionIds: ["*stress_cpu"]}',
      (p) => {
        p.execution.steps?.push({ actionId: 'x.wait_for_health', actionKind: 'CHECK' });
      },
      'deny',
      'in scope',
    ],
  ])('%s', (_name, scope, change, result, reason) => {
    const r = decideAt(scoped(scope), NOW, change).results[0];
    expect(r.result).toBe(result);
    expect(r.reasons.join('\n')).toContain(reason);
  });

  test('exclude.actionIds takes the excluded step out of what the rules see and keeps the other', () => {
    // The always-denying policy above denies with any step left, so it cannot tell whether the
    // excluded step was removed: this rule denies exactly when the excluded step is still seen.
    const files = {
      'p.yaml':
        'kind: Policy\nname: scoped\nexclude: {actionIds: ["*stress_cpu"]}\nrules:\n  - condition: {deny: {in: [com.steadybit.extension_container.stress_cpu, {var: steps.actionIds}]}, reason: excluded step seen}\n  - condition: {require: {in: [x.wait_for_health, {var: steps.actionIds}]}, reason: kept step not seen}\n',
    };
    const r = decideAt(files, NOW, (p) => {
      p.execution.steps?.push({ actionId: 'x.wait_for_health', actionKind: 'CHECK' });
    }).results[0];
    expect([r.result, r.reasons]).toEqual(['pass', ['passed: rules[0].condition, rules[1].condition']]);
  });
});
