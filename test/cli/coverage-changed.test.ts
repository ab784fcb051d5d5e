import { join } from 'node:path';
import { readBasePolicies } from '../../src/cli/coverage/base-policies';
import { coveragePlan } from '../../src/cli/coverage/coverage-plan';
import { ruleChanges } from '../../src/cli/coverage/rule-changes';
import { BadInputError } from '../../src/common/bad-input-error';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { tempDirs } from './run-cli';

/**
 * `test --coverage-changed <base-dir>` (docs/test-coverage.md): which rules and time-window branches
 * a change adds or edits, compared with the base as written.
 */
const blocked = (envs: string[]) => ({ environments: { blocked: envs } });
const window = (deny: unknown[], timeZone = 'Europe/Berlin') => ({ timeWindow: { timeZone, deny } });
const FREEZE = { name: 'year-end', start: '2026-12-18', end: '2027-01-04' };
const FRIDAYS = { name: 'Friday afternoons', days: ['Fri'], from: '15:00', to: '24:00' };
const SPRING = { name: 'spring release', start: '2027-05-03', end: '2027-05-05' };

describe('ruleChanges: each rule of a policy against the same policy in the base', () => {
  test('the same entry at its place, or moved to a place no other rule took, is unchanged', () => {
    expect(ruleChanges([blocked(['prod']), window([FREEZE])], [blocked(['prod']), window([FREEZE])])).toEqual([{}, {}]);
    expect(ruleChanges([window([FREEZE]), blocked(['prod'])], [blocked(['prod']), window([FREEZE])])).toEqual([{}, {}]);
  });

  test('a different spec of the same kind at its place is edited (with the base entry); another kind there is added', () => {
    expect(ruleChanges([blocked(['prod', 'qa'])], [blocked(['prod'])])).toEqual([
      { change: 'edited', before: blocked(['prod']) },
    ]);
    expect(ruleChanges([window([FREEZE])], [blocked(['prod'])])).toEqual([{ change: 'added' }]);
  });

  test('a rule inserted before others is added, the others moved, not edited', () => {
    expect(ruleChanges([window([FREEZE]), blocked(['prod'])], [blocked(['prod'])])).toEqual([{ change: 'added' }, {}]);
  });

  test('every rule of a policy the base does not have is added; a repeated rule is added once the base entry is taken', () => {
    expect(ruleChanges([blocked(['prod'])], undefined)).toEqual([{ change: 'added' }]);
    expect(ruleChanges([blocked(['prod']), blocked(['prod'])], [blocked(['prod'])])).toEqual([{}, { change: 'added' }]);
  });

  test('key order and YAML style do not make an edit: the values are compared', () => {
    expect(ruleChanges([{ timeWindow: { deny: [FREEZE], timeZone: 'Europe/Berlin' } }], [window([FREEZE])])).toEqual([
      {},
    ]);
  });
});

/** The plan of `policies` (name -> rules) with `base` (name -> rules) as --coverage-changed's base: what changed. */
function changedOf(policies: Record<string, unknown[]>, base: Record<string, unknown[]>) {
  const sources = Object.entries(policies).map(([name, rules]) => ({
    file: `${name}.yaml`,
    text: JSON.stringify({ kind: 'Policy', name, rules }),
  }));
  const loaded = loadBundle(sources, new Date('2026-01-05T10:00:00Z'));
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  const plan = coveragePlan(loaded.bundle, sources, { dir: 'base', rules: new Map(Object.entries(base)) });
  return plan
    .filter((i) => i.change !== undefined)
    .map((i) => [i.policy, i.kind === 'branch' ? `${i.rule} ${i.branch?.name}` : i.rule, i.change]);
}

describe('coveragePlan with a base: the rules and windows the change adds or edits', () => {
  test('nothing changed: nothing marked, whatever the files', () => {
    expect(
      changedOf({ a: [blocked(['prod']), window([FREEZE])] }, { a: [blocked(['prod']), window([FREEZE])] }),
    ).toEqual([]);
  });

  test('a new policy: every rule and window added', () => {
    expect(changedOf({ a: [blocked(['prod'])], b: [window([FREEZE])] }, { a: [blocked(['prod'])] })).toEqual([
      ['b', 'rules[0].timeWindow', 'added'],
      ['b', 'rules[0].timeWindow deny[0]: inside', 'added'],
      ['b', 'rules[0].timeWindow deny[0]: outside', 'added'],
    ]);
  });

  test('a window inserted before another: the rule is edited, the new window added, the moved one unchanged', () => {
    expect(changedOf({ a: [window([FREEZE, SPRING, FRIDAYS])] }, { a: [window([FREEZE, FRIDAYS])] })).toEqual([
      ['a', 'rules[0].timeWindow', 'edited'],
      ['a', 'rules[0].timeWindow deny[1]: inside', 'added'],
      ['a', 'rules[0].timeWindow deny[1]: outside', 'added'],
    ]);
  });

  test("a window's dates changed: that window edited; a time zone changed: every window edited", () => {
    const later = { ...FREEZE, end: '2027-01-06' };
    expect(changedOf({ a: [window([later, FRIDAYS])] }, { a: [window([FREEZE, FRIDAYS])] })).toEqual([
      ['a', 'rules[0].timeWindow', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: inside', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: outside', 'edited'],
    ]);
    expect(changedOf({ a: [window([FREEZE, FRIDAYS], 'UTC')] }, { a: [window([FREEZE, FRIDAYS])] })).toEqual([
      ['a', 'rules[0].timeWindow', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: inside', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: outside', 'edited'],
      ['a', 'rules[0].timeWindow deny[1]: inside', 'edited'],
      ['a', 'rules[0].timeWindow deny[1]: outside', 'edited'],
    ]);
  });

  test('a base rule whose spec no longer compiles: every window of the edited rule counts as changed', () => {
    const broken = { timeWindow: { timeZone: 'Europe/Berln', deny: [FREEZE] } };
    expect(changedOf({ a: [window([FREEZE])] }, { a: [broken] })).toEqual([
      ['a', 'rules[0].timeWindow', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: inside', 'edited'],
      ['a', 'rules[0].timeWindow deny[0]: outside', 'edited'],
    ]);
  });
});

describe('readBasePolicies', () => {
  const dir = tempDirs();

  test("reads each policy's rules as written, from every policy file below the directory (test suites are not policies)", () => {
    const d = dir({
      'a.yaml': 'kind: Policy\nname: a\nrules:\n  - environments: { blocked: [prod] }\n',
      'team/b.yaml': 'kind: Policy\nname: b\nmatch: { teams: [OPS] }\nrules: []\n---\nkind: Exception\nname: e\n',
      'a.test.yaml': 'kind: Policy\nname: not-a-policy\nrules: []\n',
    });
    const base = readBasePolicies(d);
    expect(base.dir).toBe(d);
    expect([...base.rules]).toEqual([
      ['a', [blocked(['prod'])]],
      ['b', []],
    ]);
  });

  test('a file that is not valid YAML adds nothing (its rules then count as added); a base that does not load still compares', () => {
    const d = dir({
      'a.yaml': 'kind: Policy\nname: a\nrules:\n  - environments: { blocked: [prod\n',
      'b.yaml': 'kind: Policy\nname: b\nrules:\n  - nosuchrule: {}\n',
    });
    expect([...readBasePolicies(d).rules]).toEqual([['b', [{ nosuchrule: {} }]]]);
  });

  test('a directory that does not exist, or a file, is a usage error naming the option', () => {
    const d = dir({ 'a.yaml': 'kind: Policy\nname: a\nrules: []\n' });
    expect(() => readBasePolicies(join(d, 'missing'))).toThrow(BadInputError);
    expect(() => readBasePolicies(join(d, 'missing'))).toThrow(
      `--coverage-changed ${join(d, 'missing')}: does not exist`,
    );
    expect(() => readBasePolicies(join(d, 'a.yaml'))).toThrow(
      `--coverage-changed ${join(d, 'a.yaml')}: not a directory (give the base policy directory)`,
    );
  });
});
