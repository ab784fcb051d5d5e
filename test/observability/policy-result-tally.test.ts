import { PolicyResultTally } from '../../src/observability/policy-result-tally';
import { MODES, type PolicyResult, type PolicyResultKind } from '../../src/policy/core/decision';

const result = (policy: string, mode: PolicyResult['mode'], kind: PolicyResultKind): PolicyResult => ({
  policy,
  mode,
  priority: 100,
  result: kind,
  reasons: [],
  source: { file: 'f.yaml', line: 1, col: 1 },
});
const KINDS: PolicyResultKind[] = ['pass', 'deny', 'warn', 'audit', 'skipped'];

describe('PolicyResultTally (preflight_policy_results_total on the request path)', () => {
  test('counts every mode and result but skipped, per policy, and adds up across decisions', () => {
    const tally = new PolicyResultTally();
    const every = MODES.flatMap((mode) => KINDS.map((kind) => result(`p-${mode}`, mode, kind)));
    tally.add(every);
    tally.add([
      result('p-enforce', 'enforce', 'deny'),
      result('other', 'audit', 'audit'),
      result('other', 'audit', 'skipped'),
    ]);
    const series = [...tally.counts()];
    expect(series).toHaveLength(13); // each (policy, mode, result) once
    const counts = Object.fromEntries(series.map((c) => [`${c.policy} ${c.mode} ${c.result}`, c.count]));
    expect(counts).toEqual({
      'p-enforce enforce pass': 1,
      'p-enforce enforce deny': 2,
      'p-enforce enforce warn': 1,
      'p-enforce enforce audit': 1,
      'p-warn warn pass': 1,
      'p-warn warn deny': 1,
      'p-warn warn warn': 1,
      'p-warn warn audit': 1,
      'p-audit audit pass': 1,
      'p-audit audit deny': 1,
      'p-audit audit warn': 1,
      'p-audit audit audit': 1,
      'other audit audit': 1,
    });
  });

  test('a policy seen only as skipped has no series', () => {
    const tally = new PolicyResultTally();
    tally.add([result('never-applied', 'enforce', 'skipped')]);
    expect([...tally.counts()]).toEqual([]);
  });

  test('a mode or result outside the types is not counted and does not stop the others being counted', () => {
    const tally = new PolicyResultTally();
    tally.add([
      result('odd-kind', 'enforce', 'error' as PolicyResultKind),
      result('odd-mode', 'dry-run' as PolicyResult['mode'], 'pass'),
      result('fine', 'enforce', 'pass'),
    ]);
    expect([...tally.counts()]).toEqual([{ policy: 'fine', mode: 'enforce', result: 'pass', count: 1 }]);
  });

  test('keeps every count as the table grows (hundreds of policies, counted between growths)', () => {
    const tally = new PolicyResultTally();
    const names = Array.from({ length: 300 }, (_, i) => `p-${i}`);
    // Round r counts the first 100 * (r + 1) policies once, so the table grows while counts exist.
    for (let round = 0; round < 3; round++)
      tally.add(names.slice(0, 100 * (round + 1)).map((n) => result(n, 'warn', 'warn')));
    const counts = new Map([...tally.counts()].map((c) => [c.policy, c.count]));
    expect(counts.size).toBe(300);
    names.forEach((n, i) => expect(counts.get(n)).toBe(3 - Math.floor(i / 100)));
  });
});
