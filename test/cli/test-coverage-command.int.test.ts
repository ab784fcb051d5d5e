import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { CoverageReport } from '../../src/cli/coverage/coverage-report';
import { COVERAGE_POLICIES } from './coverage-policies';
import { runCli, runIn, tempDirs } from './run-cli';

/**
 * `preflight-gate test --coverage` end to end (docs/test-coverage.md): the built CLI on a small
 * policy set whose suite leaves known gaps (a policy whose scope rules out every case, an exception
 * that never waives, a window only ever inside, rules only ever passing or only ever denying), in
 * each format, with the exit codes 0, 1 and 2; and --coverage-changed against a base directory.
 */
const SET: Record<string, string> = { ...COVERAGE_POLICIES, 'run.json': JSON.stringify(runIn('staging')) };

const SUITE = `defaults:
  now: "2026-01-05T10:00:00Z"
  payloadFile: run.json
cases:
  - name: an attack on a Monday morning is denied
    expect: { decision: deny, denied: [no-attacks] }
  - name: so is one in dev
    patch: { execution.environment: dev }
    expect: { decision: deny, denied: [no-attacks] }
`;

/**
 * The cases that close every gap of SUITE: a Saturday (outside the window), a run of team OPS (in
 * scope, waived), one of team OPS in prod (no-prod and only-ops deny) and one without an attack.
 */
const MORE_CASES = `
  - name: a Saturday is outside the window
    now: "2026-01-10T10:00:00Z"
    expect: { decision: deny, denied: [hours, no-attacks] }
  - name: team OPS has a game day
    patch: { execution.teamKey: OPS }
    expect: { decision: allow, results: { no-attacks: skipped, only-ops: pass } }
  - name: not in prod, though
    patch: { execution.teamKey: OPS, execution.environment: prod }
    expect: { decision: deny, denied: [no-prod, only-ops] }
  - name: a check is no attack
    patch:
      execution.steps[0].actionKind: CHECK
    expect: { decision: allow }
`;

const GAPS = [
  'hours.yaml:4:5 rule rules[0].timeWindow of policy hours: never seen to deny (it passed in 2 cases, no case made it find something)',
  'no-attacks.yaml:4:5 rule rules[0].condition of policy no-attacks: never seen to pass (it denied in 2 cases, no case got past it)',
  'no-prod.yaml:4:5 rule rules[0].environments of policy no-prod: never seen to deny (it passed in 2 cases, no case made it find something)',
  'only-ops.yaml:1:1 policy only-ops: no case made it apply (no case was inside its match and exclude scope)',
  'only-ops.yaml:5:5 rule rules[0].environments of policy only-ops: no case made it judge (its policy never applied)',
  'hours.yaml:7:9 rules[0].timeWindow allowed: outside of policy hours: no case ran outside every allowed window (Mon-Fri 09:00-17:00 UTC)',
  'no-attacks.yaml:6:1 exception ops-gameday (waives no-attacks): never waived a case (considered in 2, it did not match or no longer waives)',
];

describe('preflight-gate test --coverage', () => {
  const dir = tempDirs();

  it('prints a table per policy file, names every item no case exercised at file:line:col, and exits 0 without a minimum', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    // Run in the directory: files are then named as in a policy repository (hours.yaml).
    const res = runCli(['test', '.', '--coverage'], { cwd: d });
    expect([res.code, res.stderr]).toEqual([0, '']);
    const out = res.stdout;
    expect(out).toContain('OK: 1 suite (0 failed), 2 cases: 2 passed, 0 failed');
    const table = out.slice(out.indexOf('Coverage of the policies'));
    expect(table.split('\n').slice(1, 7)).toEqual([
      '  file             policies  rules  exceptions  branches  covered  %',
      '  hours.yaml       1/1       0/1    -           1/2       2/4       50.0%',
      '  no-attacks.yaml  1/1       0/1    0/1         -         1/3       33.3%',
      '  no-prod.yaml     1/1       0/1    -           -         1/2       50.0%',
      '  only-ops.yaml    0/1       0/1    -           -         0/2        0.0%',
      '  all files        3/4       0/4    0/1         1/2       4/11      36.3%',
    ]);
    expect(out).toContain(
      `Not covered:\n${[...GAPS]
        .sort(byFile)
        .map((g) => `  ${g}`)
        .join('\n')}\n`,
    );
    expect(out.trimEnd().split('\n').at(-1)).toBe(
      'Coverage: 36.3% (4 of 11 items: policies, rules, exceptions, time-window branches)',
    );
  });

  it('--min-coverage: exit 0 at or above it, 1 below it with the figure and the threshold', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    const met = runCli(['test', d, '--min-coverage', '36.3']);
    expect([met.code, met.stderr]).toEqual([0, '']);
    expect(met.stdout).toContain('Coverage: 36.3% (4 of 11 items');
    expect(met.stdout).toContain('meets the minimum of 36.3% (--min-coverage)');
    const below = runCli(['test', d, '--min-coverage', '80']);
    expect(below.code).toBe(1);
    expect(below.stderr).toBe(
      'preflight-gate: Coverage: 36.3% (4 of 11 items: policies, rules, exceptions, time-window branches) is below the minimum of 80% (--min-coverage)\n',
    );
    const closed = runCli(['test', dir({ ...SET, 'a.test.yaml': SUITE + MORE_CASES }), '--min-coverage', '100']);
    expect([closed.code, closed.stderr]).toEqual([0, '']);
    expect(closed.stdout).toContain('Coverage: 100.0% (11 of 11 items');
    expect(closed.stdout).not.toContain('Not covered');
  });

  it.each(['abc', '150'])('--min-coverage %j is a usage error (exit 2) before any case runs', (value) => {
    const res = runCli(['test', dir({ ...SET, 'a.test.yaml': SUITE }), '--min-coverage', value]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toBe(
      `preflight-gate: --min-coverage must be a percentage from 0 to 100, e.g. 80 or 87.5 (got ${JSON.stringify(value)})\n`,
    );
  });

  it('an unknown --coverage-format is a usage error (exit 2)', () => {
    const res = runCli(['test', dir({ ...SET, 'a.test.yaml': SUITE }), '--coverage-format', 'xml']);
    expect(res.code).toBe(2);
    expect(res.stderr).toMatch(/option '--coverage-format <format>' argument 'xml' is invalid/);
  });

  it('failing cases still fail (exit 1) and a suite that cannot run still exits 2, whatever the coverage', () => {
    const failing = SUITE.replace('denied: [no-attacks] }\n  - name: so', 'denied: [no-prod] }\n  - name: so');
    const res = runCli(['test', dir({ ...SET, 'a.test.yaml': failing }), '--min-coverage', '0']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('Coverage: 36.3%');
    const broken = SUITE.replace('patch: { execution.environment: dev }', 'patch: { execution.enviroment: dev }');
    expect(runCli(['test', dir({ ...SET, 'a.test.yaml': broken }), '--coverage']).code).toBe(2);
  });

  it('--format json --coverage: one JSON document, the run with its coverage in the documented shape', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    const res = runCli(['test', d, '--format', 'json', '--coverage']);
    expect([res.code, res.stderr]).toEqual([0, '']);
    const run = JSON.parse(res.stdout) as { ok: boolean; coverage: CoverageReport };
    expect(run.ok).toBe(true);
    const c = run.coverage;
    expect(Object.keys(c)).toEqual(['version', 'covered', 'total', 'percent', 'kinds', 'files']);
    expect([c.version, c.covered, c.total, c.percent]).toEqual([1, 4, 11, 36.3]);
    expect(c.kinds.exceptions).toEqual({ covered: 0, total: 1 });
    const hours = c.files.find((f) => f.file === join(d, 'hours.yaml'));
    expect(hours?.items).toEqual([
      { kind: 'policy', policy: 'hours', line: 1, col: 1, covered: true, hits: 2 },
      {
        kind: 'rule',
        policy: 'hours',
        rule: 'rules[0].timeWindow',
        line: 4,
        col: 5,
        covered: false,
        passed: 2,
        denied: 0,
        undecided: 0,
      },
      {
        kind: 'branch',
        policy: 'hours',
        rule: 'rules[0].timeWindow',
        branch: 'allowed: inside',
        label: 'inside an allowed window (Mon-Fri 09:00-17:00 UTC)',
        line: 7,
        col: 9,
        covered: true,
        hits: 2,
      },
      {
        kind: 'branch',
        policy: 'hours',
        rule: 'rules[0].timeWindow',
        branch: 'allowed: outside',
        label: 'outside every allowed window (Mon-Fri 09:00-17:00 UTC)',
        line: 7,
        col: 9,
        covered: false,
        hits: 0,
      },
    ]);
  });

  it('--coverage-format json with the text report: the coverage JSON on stderr, or in --coverage-file; stdout keeps the report', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    const res = runCli(['test', d, '--coverage-format', 'json', '--min-coverage', '90']);
    expect(res.code).toBe(1);
    expect(res.stdout).toMatch(
      /^PASS .*\nOK: 1 suite \(0 failed\), 2 cases: 2 passed, 0 failed; policy revision \w+\n$/,
    );
    const [json, verdict] = res.stderr.split(/\n(?=preflight-gate: )/);
    expect(JSON.parse(json)).toMatchObject({ version: 1, percent: 36.3, minimum: 90, belowMinimum: true });
    expect(verdict).toMatch(/^preflight-gate: Coverage: 36\.3% .* is below the minimum of 90%/);

    const file = join(d, 'coverage.json');
    const toFile = runCli(['test', d, '--format', 'junit', '--coverage-format', 'json', '--coverage-file', file]);
    expect([toFile.code, toFile.stderr]).toEqual([0, '']);
    expect(toFile.stdout).toMatch(/^<\?xml[\s\S]*<\/testsuites>\n$/);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toMatchObject({ version: 1, covered: 4, total: 11 });

    const unwritable = runCli(['test', d, '--coverage-file', join(d, 'missing', 'c.txt')]);
    expect(unwritable.code).toBe(2);
    expect(unwritable.stderr).toMatch(/^preflight-gate: cannot write --coverage-file .*missing\/c\.txt: ENOENT/);
  });

  it('--format github: a warning annotation at each item not covered, an error below the minimum, and the job summary', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    const summary = join(d, 'summary.md');
    const res = runCli(['test', d, '--format', 'github', '--min-coverage', '90'], {
      env: { GITHUB_STEP_SUMMARY: summary },
    });
    expect(res.code).toBe(1);
    const annotations = res.stdout.split('\n').filter((l) => l.startsWith('::'));
    expect(annotations).toEqual([
      `::warning file=${d}/hours.yaml,line=4,col=5,title=preflight-gate coverage::rule rules[0].timeWindow of policy hours: never seen to deny (it passed in 2 cases, no case made it find something)`,
      `::warning file=${d}/hours.yaml,line=7,col=9,title=preflight-gate coverage::rules[0].timeWindow allowed: outside of policy hours: no case ran outside every allowed window (Mon-Fri 09:00-17:00 UTC)`,
      `::warning file=${d}/no-attacks.yaml,line=4,col=5,title=preflight-gate coverage::rule rules[0].condition of policy no-attacks: never seen to pass (it denied in 2 cases, no case got past it)`,
      `::warning file=${d}/no-attacks.yaml,line=6,col=1,title=preflight-gate coverage::exception ops-gameday (waives no-attacks): never waived a case (considered in 2, it did not match or no longer waives)`,
      `::warning file=${d}/no-prod.yaml,line=4,col=5,title=preflight-gate coverage::rule rules[0].environments of policy no-prod: never seen to deny (it passed in 2 cases, no case made it find something)`,
      `::warning file=${d}/only-ops.yaml,line=1,col=1,title=preflight-gate coverage::policy only-ops: no case made it apply (no case was inside its match and exclude scope)`,
      `::warning file=${d}/only-ops.yaml,line=5,col=5,title=preflight-gate coverage::rule rules[0].environments of policy only-ops: no case made it judge (its policy never applied)`,
      '::error title=preflight-gate coverage::Coverage: 36.3%25 (4 of 11 items: policies, rules, exceptions, time-window branches) is below the minimum of 90%25 (--min-coverage)',
    ]);
    expect(res.stdout).toContain('Coverage of the policies by the test cases:');
    const md = readFileSync(summary, 'utf8');
    expect(md).toContain('### preflight-gate policy test coverage: 36.3%');
    expect(md).toContain('| file | policies | rules | exceptions | branches | covered |');
    expect(md).toContain(`| \`${d}/only-ops.yaml\` | 0/1 | 0/1 | – | – | 0/2 (0.0%) |`);
    expect(md).toContain('| **all files** | 3/4 | 0/4 | 0/1 | 1/2 | **4/11 (36.3%)** |');
    expect(md).toContain('<details><summary>Not covered (7)</summary>');
  });

  it('without --coverage nothing changes: no coverage, no job summary', () => {
    const d = dir({ ...SET, 'a.test.yaml': SUITE });
    const summary = join(d, 'summary.md');
    const res = runCli(['test', d, '--format', 'github'], { env: { GITHUB_STEP_SUMMARY: summary } });
    expect(res.code).toBe(0);
    expect(res.stdout).not.toContain('Coverage');
    expect(existsSync(summary)).toBe(false);
  });

  describe('--coverage-changed <base-dir>', () => {
    // The base: the set as the target branch has it. The change widens the window to Saturdays,
    // adds a policy, and leaves the rest as it was.
    const base = () => dir(COVERAGE_POLICIES);
    const changed = {
      ...SET,
      'hours.yaml': SET['hours.yaml'].replace('Mon-Fri', 'Mon-Sat'),
      'no-qa.yaml': 'kind: Policy\nname: no-qa\nrules:\n  - environments: { blocked: [qa] }\n',
    };
    // The suites of the base, with Saturday now inside the window: every item of the base covered.
    const suite = (SUITE + MORE_CASES).replace('denied: [hours, no-attacks] }', 'denied: [no-attacks] }');

    it('fails (exit 1) naming each added or edited rule and window no case saw in both outcomes, however high the coverage', () => {
      const d = dir({ ...changed, 'a.test.yaml': suite });
      const b = base();
      const res = runCli(['test', '.', '--coverage-changed', b, '--min-coverage', '75'], { cwd: d });
      expect(res.code).toBe(1);
      expect(res.stdout).toContain('Coverage: 76.9% (10 of 13 items');
      expect(res.stdout).toContain('meets the minimum of 75% (--min-coverage)');
      expect(res.stderr).toBe(
        [
          `preflight-gate: Changed since ${b}: 3 of 4 added or edited items (rules, time-window branches) not covered (--coverage-changed):`,
          '  hours.yaml:4:5 rule rules[0].timeWindow of policy hours (edited): never seen to deny (it passed in 6 cases, no case made it find something)',
          '  hours.yaml:7:9 rules[0].timeWindow allowed: outside of policy hours (edited): no case ran outside every allowed window (Mon-Sat 09:00-17:00 UTC)',
          '  no-qa.yaml:4:5 rule rules[0].environments of policy no-qa (added): never seen to deny (it passed in 6 cases, no case made it find something)',
          '',
        ].join('\n'),
      );
      expect(res.stdout.trimEnd().split('\n').at(-1)).toBe(
        `Changed since ${b}: 3 of 4 added or edited items (rules, time-window branches) not covered (--coverage-changed)`,
      );
    });

    it('exit 0 once the suites cover what changed, though other items stay uncovered', () => {
      const closing = `
  - name: a Sunday is outside the window
    now: "2026-01-11T10:00:00Z"
    expect: { decision: deny, denied: [hours, no-attacks] }
  - name: qa is blocked
    patch: { execution.environment: qa }
    expect: { decision: deny, denied: [no-attacks, no-qa] }
`;
      const d = dir({ ...changed, 'a.test.yaml': SUITE + closing });
      const res = runCli(['test', d, '--coverage-changed', base()]);
      expect([res.code, res.stderr]).toEqual([0, '']);
      expect(res.stdout).toContain('Not covered:');
      expect(res.stdout).toMatch(
        /Changed since .*: all 4 added or edited items \(rules, time-window branches\) covered/,
      );
      // The same set as its own base: nothing changed, nothing asked.
      const same = runCli(['test', d, '--coverage-changed', d]);
      expect([same.code, same.stderr]).toEqual([0, '']);
      expect(same.stdout).toMatch(
        /Changed since .*: no rule or time-window branch added or edited \(--coverage-changed\)$/m,
      );
    });

    it('json: the changed items say how, and `changed` counts them; github: an error annotation on each not covered', () => {
      const d = dir({ ...changed, 'a.test.yaml': suite });
      const b = base();
      const json = runCli(['test', d, '--format', 'json', '--coverage-changed', b]);
      expect(json.code).toBe(1);
      const c = (JSON.parse(json.stdout) as { coverage: CoverageReport }).coverage;
      expect(c.changed).toEqual({ base: b, covered: 1, total: 4 });
      const marked = c.files.flatMap((f) => f.items.filter((i) => i.change !== undefined));
      expect(marked.map((i) => [i.kind, i.policy, i.change, i.covered])).toEqual([
        ['rule', 'hours', 'edited', false],
        ['branch', 'hours', 'edited', true],
        ['branch', 'hours', 'edited', false],
        ['rule', 'no-qa', 'added', false],
      ]);
      const summary = join(d, 'summary.md');
      const github = runCli(['test', d, '--format', 'github', '--coverage-changed', b], {
        env: { GITHUB_STEP_SUMMARY: summary },
      });
      expect(github.code).toBe(1);
      expect(readFileSync(summary, 'utf8')).toContain(
        `\nChanged since ${b}: 3 of 4 added or edited items (rules, time-window branches) not covered (--coverage-changed)\n`,
      );
      const annotations = github.stdout.split('\n').filter((l) => l.startsWith('::error'));
      expect(annotations).toEqual([
        `::error file=${d}/hours.yaml,line=4,col=5,title=preflight-gate coverage::rule rules[0].timeWindow of policy hours (edited): never seen to deny (it passed in 6 cases, no case made it find something)`,
        `::error file=${d}/hours.yaml,line=7,col=9,title=preflight-gate coverage::rules[0].timeWindow allowed: outside of policy hours (edited): no case ran outside every allowed window (Mon-Sat 09:00-17:00 UTC)`,
        `::error file=${d}/no-qa.yaml,line=4,col=5,title=preflight-gate coverage::rule rules[0].environments of policy no-qa (added): never seen to deny (it passed in 6 cases, no case made it find something)`,
        `::error title=preflight-gate coverage::Changed since ${b}: 3 of 4 added or edited items (rules, time-window branches) not covered (--coverage-changed)`,
      ]);
    });

    it('a base directory that does not exist is a usage error (exit 2) before any case runs', () => {
      const d = dir({ ...SET, 'a.test.yaml': SUITE });
      const res = runCli(['test', d, '--coverage-changed', join(d, 'main')]);
      expect([res.code, res.stdout]).toEqual([2, '']);
      expect(res.stderr).toBe(`preflight-gate: --coverage-changed ${join(d, 'main')}: does not exist\n`);
    });
  });

  it('documents the options in --help', () => {
    const help = runCli(['test', '--help']).stdout;
    for (const option of [
      '--coverage ',
      '--coverage-format <format>',
      '--coverage-file <file>',
      '--min-coverage <percent>',
      '--coverage-changed <base-dir>',
    ])
      expect(help).toContain(option);
    expect(help.replace(/\s+/g, ' ')).toContain('(choices: "text", "json", "github")');
  });
});

/** The uncovered list's order: by file (as read: sorted), then line. */
function byFile(a: string, b: string): number {
  return a.split(':')[0].localeCompare(b.split(':')[0]);
}
