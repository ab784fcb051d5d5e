import { decide } from '../../src/policy/engine/decide';
import { literalPrefix } from '../../src/policy/engine/policy-index';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';

const policy = (name: string, match: string) => `
kind: Policy
name: ${name}
match: ${match}
rules:
  - environments: { blocked: [payments-prod] }
`;

const files = {
  'aliases.yaml': 'kind: EnvironmentAliases\naliases:\n  production: [aaaaaaaa-0000-4000-8000-000000000001]\n',
  'team.yaml': policy('team-adm', '{ teams: [ADM] }'),
  'env.yaml': policy('env-production', '{ environments: [production] }'),
  'key.yaml': policy('key-shop', '{ experimentKeys: ["SHOP-*"] }'),
  'odd-key.yaml': policy('key-any-one', '{ experimentKeys: ["*-1"] }'),
  'global.yaml': policy('global', '{ createdVia: [UI, API] }'),
  'stress.yaml': policy('stress', '{ actionIds: ["*stress*", "*shutdown"] }'),
  'anything.yaml': policy('anything', '{ actionKinds: [ATTACK] }'),
};
const bundle = bundleFrom(files);

type Change = (p: PreflightPayload) => void;
/** The fixture's one attack step (stress_cpu). */
const actionStep = (p: PreflightPayload) => {
  const step = p.execution.steps?.find((s) => s.actionId !== undefined);
  if (!step) throw new Error('the fixture has no step with an action id');
  return step;
};
const run = (change: Change) =>
  preflightWith((p) => {
    p.execution.teamKey = 'OPS';
    p.execution.environment = 'dev';
    p.execution.experimentKey = 'OPS-7';
    change(p);
  });
const visited = (change: Change) =>
  decide(bundle, run(change), {}, new Date('2026-01-05T10:00:00Z'), { decisionId: 'd-1' })
    .results.map((r) => r.policy)
    .sort();

describe('policy index: which policies a decision visits', () => {
  test.each<[string, Change, string[]]>([
    [
      'an unrelated run visits the unindexable policies and those its createdVia and action ids reach',
      () => {},
      ['anything', 'global', 'key-any-one', 'stress'],
    ],
    [
      'the team, in any case',
      (p) => {
        p.execution.teamKey = 'adm';
      },
      ['anything', 'global', 'key-any-one', 'stress', 'team-adm'],
    ],
    [
      'a run without a team visits every team policy (unknown never narrows)',
      (p) => {
        delete p.execution.teamKey;
      },
      ['anything', 'global', 'key-any-one', 'stress', 'team-adm'],
    ],
    [
      'an environment alias, through the id sent',
      (p) => {
        p.execution.environment = 'AAAAAAAA-0000-4000-8000-000000000001';
      },
      ['anything', 'env-production', 'global', 'key-any-one', 'stress'],
    ],
    [
      'an environment override',
      (p) => {
        p.execution.overrides = { environment: 'Production' };
      },
      ['anything', 'env-production', 'global', 'key-any-one', 'stress'],
    ],
    [
      'a run without an environment visits every environment policy',
      (p) => {
        delete p.execution.environment;
      },
      ['anything', 'env-production', 'global', 'key-any-one', 'stress'],
    ],
    [
      'an experiment key under a glob prefix, in any case',
      (p) => {
        p.execution.experimentKey = 'shop-12';
      },
      ['anything', 'global', 'key-any-one', 'key-shop', 'stress'],
    ],
    [
      'an unusual experiment key visits every key policy',
      (p) => {
        p.execution.experimentKey = './SHOP-1';
      },
      ['anything', 'global', 'key-any-one', 'key-shop', 'stress'],
    ],
    [
      'a run without an experiment key visits every key policy',
      (p) => {
        delete p.execution.experimentKey;
      },
      ['anything', 'global', 'key-any-one', 'key-shop', 'stress'],
    ],
    [
      'createdVia the global policy does not list leaves it out',
      (p) => {
        p.execution.createdVia = 'cli';
      },
      ['anything', 'key-any-one', 'stress'],
    ],
    [
      'a run without createdVia visits every createdVia policy',
      (p) => {
        delete p.execution.createdVia;
      },
      ['anything', 'global', 'key-any-one', 'stress'],
    ],
    [
      'an action id no glob matches leaves the action policy out',
      (p) => {
        actionStep(p).actionId = 'com.steadybit.extension_http.check';
      },
      ['anything', 'global', 'key-any-one'],
    ],
    [
      'an action id matched in any case',
      (p) => {
        actionStep(p).actionId = 'COM.STEADYBIT.EXTENSION_HOST.SHUTDOWN';
      },
      ['anything', 'global', 'key-any-one', 'stress'],
    ],
    [
      'a step without an action id keeps the action policy (unknown never narrows)',
      (p) => {
        delete actionStep(p).actionId;
      },
      ['anything', 'global', 'key-any-one', 'stress'],
    ],
    [
      'a run without action steps leaves the action policy out',
      (p) => {
        p.execution.steps = [];
      },
      ['anything', 'global', 'key-any-one'],
    ],
  ])('%s', (_name, change, expected) => {
    expect(visited(change)).toEqual(expected);
  });

  test('files each policy once, under its most selective field', () => {
    expect(bundle.index.stats).toEqual({
      filed: { experimentKeys: 1, teams: 1, environments: 1, createdVia: 1, actionIds: 1 },
      alwaysVisited: 2,
    });
  });

  test('the decision counts the policies ruled out and names the full total', () => {
    const decision = decide(
      bundle,
      run(() => {}),
      {},
      new Date('2026-01-05T10:00:00Z'),
      { decisionId: 'd-1' },
    );
    expect(decision.outOfScope).toBe(3);
    expect(decision.message).toMatch(/^Allowed: 3 of 7 policies applied, none denied\./);
  });

  test('a full scan lists every policy and rules none out', () => {
    const decision = decide(
      bundle,
      run(() => {}),
      {},
      new Date('2026-01-05T10:00:00Z'),
      { decisionId: 'd-1', fullScan: true },
    );
    expect(decision.results).toHaveLength(7);
    expect(decision.outOfScope).toBe(0);
    expect(decision.results.find((r) => r.policy === 'team-adm')).toMatchObject({
      result: 'skipped',
      reasons: ['team OPS not in match.teams (ADM)'],
    });
  });

  test.each([
    ['SHOP-*', 'shop-'],
    ['ADM-1', 'adm-1'],
    ['*-1', ''],
    ['./ADM-*', ''],
    ['{ADM,SHOP}-1', ''],
    ['Pay_ments.*', 'pay_ments'],
  ])('the literal prefix of %s is "%s"', (pattern, prefix) => {
    expect(literalPrefix(pattern)).toBe(prefix);
  });
});
