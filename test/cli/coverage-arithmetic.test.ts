import { coveragePlan } from '../../src/cli/coverage/coverage-plan';
import { CoverageRecorder } from '../../src/cli/coverage/coverage-recorder';
import { coverageReport, isBelow, percentOf, type CoverageEntry } from '../../src/cli/coverage/coverage-report';
import { parseMinCoverage } from '../../src/cli/coverage/min-coverage';
import { uncoveredText } from '../../src/cli/coverage/uncovered-text';
import { BadInputError } from '../../src/common/bad-input-error';
import type { PreflightPayload } from '../../src/payload/types';
import type { Decision } from '../../src/policy/core/decision';
import { decide } from '../../src/policy/engine/decide';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { preflightWith } from '../helpers/fixtures';
import { testPolicyDir } from '../../src/cli/suite/test-run';
import { join } from 'node:path';
import { COVERAGE_POLICIES } from './coverage-policies';

// The spec example run: team ADM, steps [wait, ATTACK stress_cpu]. 2026-01-05 is a Monday.
const MONDAY_10 = '2026-01-05T10:00:00Z';
const SATURDAY_10 = '2026-01-10T10:00:00Z';

/** The shared coverage set, in a policies/ folder. */
const SET: Record<string, string> = Object.fromEntries(
  Object.entries(COVERAGE_POLICIES).map(([file, text]) => [`policies/${file}`, text]),
);

interface Run {
  now: string;
  change?: (p: PreflightPayload) => void;
}

/** The coverage of `files` by decisions on the spec example at each run's time (what a suite's cases decide). */
function coverageOf(files: Record<string, string>, runs: Run[], minimum?: number) {
  const sources = Object.entries(files).map(([file, text]) => ({ file, text }));
  const loaded = loadBundle(sources, new Date(MONDAY_10));
  if (!loaded.ok) throw new Error(loaded.problems.map((p) => p.message).join('\n'));
  const plan = coveragePlan(loaded.bundle, sources);
  const recorder = new CoverageRecorder(plan);
  for (const run of runs) {
    const at = new Date(run.now);
    const payload = preflightWith(run.change ?? (() => undefined));
    recorder.record(loaded.bundle, decide(loaded.bundle, payload, {}, at, { decisionId: 'test', fullScan: true }));
  }
  return coverageReport(plan, recorder.tally, loaded.bundle.files, minimum);
}

const entries = (report: ReturnType<typeof coverageOf>): CoverageEntry[] => report.files.flatMap((f) => f.items);
const find = (report: ReturnType<typeof coverageOf>, pred: (e: CoverageEntry) => boolean) => {
  const found = entries(report).filter(pred);
  expect(found).toHaveLength(1);
  return found[0];
};

describe('test --coverage: what counts as exercised', () => {
  const report = coverageOf(SET, [{ now: MONDAY_10 }, { now: MONDAY_10 }]);

  test('a policy whose scope rules out every case is not covered, and neither is its rule (never judged)', () => {
    expect(find(report, (e) => e.kind === 'policy' && e.policy === 'only-ops')).toMatchObject({
      covered: false,
      hits: 0,
    });
    expect(find(report, (e) => e.kind === 'rule' && e.policy === 'only-ops')).toMatchObject({
      covered: false,
      passed: 0,
      denied: 0,
    });
  });

  test('a rule judged only by passing cases is not covered: no case saw it deny', () => {
    const rule = find(report, (e) => e.kind === 'rule' && e.policy === 'no-prod');
    expect(rule).toMatchObject({
      rule: 'rules[0].environments',
      covered: false,
      passed: 2,
      denied: 0,
      undecided: 0,
      line: 4,
      col: 5,
    });
    expect(uncoveredText(rule)).toBe(
      'rule rules[0].environments of policy no-prod: never seen to deny (it passed in 2 cases, no case made it find something)',
    );
  });

  test('a rule judged only by denying cases is not covered either, and the exception asked about it (but not matching) is considered, not covered', () => {
    const rule = find(report, (e) => e.kind === 'rule' && e.policy === 'no-attacks');
    expect(rule).toMatchObject({ covered: false, passed: 0, denied: 2 });
    expect(uncoveredText(rule)).toBe(
      'rule rules[0].condition of policy no-attacks: never seen to pass (it denied in 2 cases, no case got past it)',
    );
    expect(find(report, (e) => e.kind === 'exception')).toMatchObject({
      exception: 'ops-gameday',
      policy: 'no-attacks',
      covered: false,
      waived: 0,
      considered: 2,
      line: 6,
    });
  });

  test('a window only ever inside: the inside branch is covered, the outside one is not', () => {
    const branches = entries(report).filter((e) => e.kind === 'branch');
    expect(branches.map((b) => [b.kind === 'branch' && b.branch, b.covered, b.line])).toEqual([
      ['allowed: inside', true, 7],
      ['allowed: outside', false, 7],
    ]);
  });

  test('percent is covered over all items (policies + rules + exceptions + branches), per file and in all', () => {
    expect(report.kinds).toEqual({
      policies: { covered: 3, total: 4 },
      rules: { covered: 0, total: 4 },
      exceptions: { covered: 0, total: 1 },
      branches: { covered: 1, total: 2 },
    });
    expect([report.covered, report.total, report.percent]).toEqual([4, 11, 36.3]);
    expect(report.files.map((f) => [f.file, f.covered, f.total, f.percent])).toEqual([
      ['policies/only-ops.yaml', 0, 2, 0],
      ['policies/no-prod.yaml', 1, 2, 50],
      ['policies/hours.yaml', 2, 4, 50],
      ['policies/no-attacks.yaml', 1, 3, 33.3],
    ]);
    expect(report).not.toHaveProperty('minimum');
  });
});

describe('test --coverage: closing the gaps', () => {
  test('each rule seen to pass and to deny, each window inside and outside, the scoped policy applied and the exception waiving', () => {
    const ops = (p: PreflightPayload) => void (p.execution.teamKey = 'OPS');
    const report = coverageOf(SET, [
      { now: MONDAY_10 },
      { now: SATURDAY_10 },
      { now: MONDAY_10, change: ops },
      // In prod: no-prod and only-ops deny; without an attack step, no-attacks passes.
      {
        now: MONDAY_10,
        change: (p) => {
          ops(p);
          p.execution.environment = 'prod';
        },
      },
      { now: MONDAY_10, change: (p) => void (p.execution.steps = []) },
    ]);
    expect(entries(report).filter((e) => !e.covered)).toEqual([]);
    expect([report.covered, report.total, report.percent]).toEqual([11, 11, 100]);
    expect(find(report, (e) => e.kind === 'exception')).toMatchObject({ covered: true, waived: 2, considered: 2 });
    // Waived: its rule still judged (and found what the exception waived).
    expect(find(report, (e) => e.kind === 'rule' && e.policy === 'no-attacks')).toMatchObject({ passed: 1, denied: 4 });
  });

  test('an exception whose policy never found anything was never even considered', () => {
    const report = coverageOf(SET, [{ now: MONDAY_10, change: (p) => void (p.execution.steps = []) }]);
    expect(find(report, (e) => e.kind === 'exception')).toMatchObject({ covered: false, considered: 0 });
  });

  test('freezes: each deny window has an inside and an outside branch, told apart by what the rule found', () => {
    const freezes = `kind: Policy
name: freezes
rules:
  - timeWindow:
      timeZone: Europe/Berlin
      deny:
        - { name: year-end, start: "2026-12-18", end: "2027-01-04" }
        - { name: Friday afternoons, days: [Fri], from: "15:00", to: "24:00" }
`;
    const report = coverageOf({ 'f.yaml': freezes }, [{ now: '2026-12-21T10:00:00Z' }, { now: MONDAY_10 }]);
    const branches = entries(report).filter((e) => e.kind === 'branch');
    expect(branches.map((b) => [b.kind === 'branch' && b.branch, b.hits, b.line])).toEqual([
      ['deny[0]: inside', 1, 7],
      ['deny[0]: outside', 1, 7],
      ['deny[1]: inside', 0, 8],
      ['deny[1]: outside', 2, 8],
    ]);
  });

  test('a rule that could not decide took none of its branches and was not seen to deny (the engine failed closed)', () => {
    const sources = [{ file: 'h.yaml', text: SET['policies/hours.yaml'] }];
    const loaded = loadBundle(sources, new Date(MONDAY_10));
    if (!loaded.ok) throw new Error('does not load');
    const plan = coveragePlan(loaded.bundle, sources);
    const recorder = new CoverageRecorder(plan);
    const policy = loaded.bundle.policies[0];
    const undecided: Decision = {
      ...decide(
        loaded.bundle,
        preflightWith(() => undefined),
        {},
        new Date(MONDAY_10),
        { decisionId: 'x' },
      ),
      results: [
        {
          ...policy.passed.result,
          result: 'deny',
          findings: [{ rule: 'rules[0].timeWindow', reason: 'cannot decide: rule failed', undecidable: true }],
        },
      ],
    };
    recorder.record(loaded.bundle, undecided);
    const once = coverageReport(plan, recorder.tally, loaded.bundle.files);
    expect(once.kinds.branches).toEqual({ covered: 0, total: 2 });
    const rule = once.files[0].items.find((e) => e.kind === 'rule');
    expect(rule).toMatchObject({ covered: false, passed: 0, denied: 1, undecided: 1 });
    expect(uncoveredText(rule as CoverageEntry)).toBe(
      'rule rules[0].timeWindow of policy hours: never seen to pass or deny (it could not decide in 1 case)',
    );
    // A passing case next to it: still never seen to deny.
    recorder.record(
      loaded.bundle,
      decide(
        loaded.bundle,
        preflightWith(() => undefined),
        {},
        new Date(MONDAY_10),
        { decisionId: 'y' },
      ),
    );
    const report = coverageReport(plan, recorder.tally, loaded.bundle.files);
    expect(report.kinds.rules).toEqual({ covered: 0, total: 1 });
    expect(uncoveredText(report.files[0].items.find((e) => e.kind === 'rule') as CoverageEntry)).toBe(
      'rule rules[0].timeWindow of policy hours: never seen to deny (it passed in 1 case and could not decide in 1 case, no case made it find something)',
    );
  });
});

describe('--min-coverage', () => {
  test('the threshold compares the exact fraction; the figure is rounded down', () => {
    expect(percentOf({ covered: 2, total: 3 })).toBe(66.6);
    expect(percentOf({ covered: 1999, total: 2000 })).toBe(99.9);
    expect(isBelow({ covered: 2, total: 3 }, 66.6)).toBe(false);
    expect(isBelow({ covered: 2, total: 3 }, 66.7)).toBe(true);
    expect(isBelow({ covered: 1999, total: 2000 }, 100)).toBe(true);
    expect(isBelow({ covered: 3, total: 3 }, 100)).toBe(false);
  });

  test('the report says the minimum and whether it is met', () => {
    const runs = [{ now: MONDAY_10 }];
    expect(coverageOf(SET, runs, 36)).toMatchObject({ minimum: 36, belowMinimum: false });
    expect(coverageOf(SET, runs, 40)).toMatchObject({ minimum: 40, belowMinimum: true });
  });

  test.each([
    ['80', 80],
    ['87.5', 87.5],
    ['80%', 80],
    ['0', 0],
    ['100', 100],
  ])('accepts %s', (text, value) => expect(parseMinCoverage(text)).toBe(value));

  test.each(['abc', '150', '100.1', '-1', '', '1e2', '80 %', '0x50'])('rejects %j as a usage error', (text) => {
    expect(() => parseMinCoverage(text)).toThrow(BadInputError);
    expect(() => parseMinCoverage(text)).toThrow(/--min-coverage must be a percentage from 0 to 100/);
  });
});

describe('the bundled policy sets: their own suites cover them', () => {
  const sets = [
    'policies',
    'examples/attacked-services',
    'examples/guard',
    'examples/signals',
    'examples/target-owners',
  ];
  test.each(sets)('%s', (dir) => {
    const run = testPolicyDir(join(__dirname, '..', '..', dir), {}, new Date(), { coverage: { minimum: 100 } });
    expect(run.ok).toBe(true);
    expect(run.coverage?.files.flatMap((f) => f.items.filter((i) => !i.covered))).toEqual([]);
    expect(run.coverage).toMatchObject({ percent: 100, belowMinimum: false });
    expect(run.coverage?.covered).toBe(run.coverage?.total);
  });
});
