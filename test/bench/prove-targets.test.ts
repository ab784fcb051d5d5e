import type { ProveFigures, ProveRunFigures } from '../../bench/prove-stage';
import { formatReport } from '../../bench/report';
import { checkProveTargets, PROVE_LIMITS } from '../../bench/targets';
import { benchResults } from './bench-results';

/** diff and prove in the bench (issue 47 item 5): what each must find, and its budget on the CPU time. */
const run = (name: string, change: Partial<ProveRunFigures> = {}): ProveRunFigures => ({
  name,
  seconds: 1.5,
  rounds: [1.5],
  cpuSeconds: 1,
  exitCode: 0,
  answers: {},
  unknown: [],
  ...change,
});
const figures = (change: Partial<ProveFigures> = {}): ProveFigures => ({
  bundledDiff: run('diff of the bundled set against a one-rule change', {
    answers: { 'newly-allowed': 1, 'newly-denied': 1 },
  }),
  bundledProve: run('prove of the bundled properties', {
    answers: { proven: 1, counterexample: 0, unknown: 0, total: 1 },
  }),
  generatedDiff: run('diff of 1000 generated policies', {
    cpuSeconds: 10,
    answers: { 'newly-allowed': 0, 'newly-denied': 1 },
  }),
  everydayEdits: [],
  generatedPolicies: 1000,
  cores: 2,
  ...change,
});
const verdicts = (f: ProveFigures) => checkProveTargets(f).map((l) => [l.name, l.pass, l.correctness]);

describe('diff and prove targets', () => {
  it('met: every line passes, three of them correctness lines', () => {
    expect(verdicts(figures())).toEqual([
      ['diff of the bundled set against a one-rule change finds the newly allowed class', true, true],
      [`diff of the bundled set against a one-rule change < ${PROVE_LIMITS.bundledDiff} s`, true, false],
      ['prove of the bundled properties proves every one', true, true],
      [`prove of the bundled properties < ${PROVE_LIMITS.bundledProve} s`, true, false],
      [
        'diff of 1000 generated policies against 1000 with one rule changed finds the change or says why not',
        true,
        true,
      ],
      [`diff of 1000 policies against 1000 with one rule changed < ${PROVE_LIMITS.generatedDiff} s`, true, false],
    ]);
  });

  it('judges the CPU time, not the wall time of a shared host, and names both', () => {
    const slowHost = figures({ bundledDiff: { ...figures().bundledDiff, seconds: 5.4, rounds: [5.4] } });
    const [, time] = checkProveTargets(slowHost);
    expect(time).toMatchObject({ pass: true, detail: 'CPU 1.00 s (wall 5.40 s; rounds 5.40 s) on 2 cores' });
    const slowCpu = figures({ bundledProve: { ...figures().bundledProve, cpuSeconds: 2 } });
    expect(checkProveTargets(slowCpu)[3].pass).toBe(false);
    const generated = figures({ generatedDiff: { ...figures().generatedDiff, cpuSeconds: 30 } });
    expect(checkProveTargets(generated)[5].pass).toBe(false);
  });

  it('a diff that misses the loosening, an unproven property or a generated diff that finds nothing and says nothing fail as correctness', () => {
    const missed = figures({
      bundledDiff: { ...figures().bundledDiff, answers: { 'newly-allowed': 0, 'newly-denied': 1 } },
    });
    expect(checkProveTargets(missed)[0]).toMatchObject({ pass: false, correctness: true });
    const broken = figures({
      bundledProve: { ...figures().bundledProve, answers: { proven: 0, counterexample: 1, unknown: 0, total: 1 } },
    });
    expect(checkProveTargets(broken)[2]).toMatchObject({ pass: false, correctness: true });
    const silent = figures({
      generatedDiff: { ...figures().generatedDiff, answers: { 'newly-allowed': 0, 'newly-denied': 0 } },
    });
    expect(checkProveTargets(silent)[4]).toMatchObject({ pass: false, correctness: true });
    const unknown = figures({
      generatedDiff: {
        ...figures().generatedDiff,
        answers: { 'newly-allowed': 0, 'newly-denied': 0 },
        unknown: ['612 class(es) ...'],
      },
    });
    expect(checkProveTargets(unknown)[4].pass).toBe(true);
  });

  it('each everyday edit must find its class, nothing else and no unknown, within its budget', () => {
    const edit = (change: Partial<ProveRunFigures> = {}) => ({
      ...run('diff of the bundled set against an exception', { answers: { 'newly-allowed': 2, 'newly-denied': 0 } }),
      expected: 'newly-allowed' as const,
      ...change,
    });
    const lines = (e: ReturnType<typeof edit>) => checkProveTargets(figures({ everydayEdits: [e] })).slice(6);
    expect(lines(edit()).map((l) => [l.name, l.pass, l.correctness])).toEqual([
      [
        'diff of the bundled set against an exception finds the newly-allowed class, nothing else, no unknown',
        true,
        true,
      ],
      [`diff of the bundled set against an exception < ${PROVE_LIMITS.everydayEdit} s`, true, false],
    ]);
    expect(lines(edit({ unknown: ['more classes than the search decides (x)'] }))[0].pass).toBe(false);
    expect(lines(edit({ answers: { 'newly-allowed': 2, 'newly-denied': 1 } }))[0].pass).toBe(false);
    expect(lines(edit({ answers: { 'newly-allowed': 0, 'newly-denied': 0 } }))[0].pass).toBe(false);
    expect(lines(edit({ cpuSeconds: PROVE_LIMITS.everydayEdit }))[1].pass).toBe(false);
  });

  it('the report has a table of the three runs', () => {
    const report = formatReport(benchResults({ prove: figures() }));
    expect(report).toContain(
      'preflight-gate diff and prove (the CLI as a process, node start included; docs/prove.md):',
    );
    expect(report).toMatch(
      /^prove of the bundled properties\s+1\.50\s+1\.00\s+1\.50\s+proven 1, counterexample 0, unknown 0, total 1\s+0$/m,
    );
  });
});
