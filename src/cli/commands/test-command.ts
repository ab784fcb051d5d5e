import {
  COVERAGE_FORMATS,
  formatCoverage,
  type CoverageFormat,
  writeCoverageFile,
  writeJobSummary,
} from '../coverage/coverage-output';
import { readBasePolicies } from '../coverage/base-policies';
import { parseMinCoverage } from '../coverage/min-coverage';
import {
  changedVerdict,
  changesUncovered,
  coverageVerdict,
  uncoveredChanges,
  uncoveredText,
} from '../coverage/uncovered-text';
import { policyDirArg } from '../read-input';
import { reportGithub } from '../suite/report-github';
import { reportJunit } from '../suite/report-junit';
import { reportText } from '../suite/report-text';
import { testPolicyDir, type TestRun } from '../suite/test-run';
import { EXIT } from '../exit-codes';

export const TEST_FORMATS = ['text', 'junit', 'json', 'github'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];
export { COVERAGE_FORMATS };

export interface TestCommandOptions {
  format: TestFormat;
  /** Measure coverage (implied by the other coverage options). */
  coverage?: boolean;
  /** Default: --format's (text for junit). */
  coverageFormat?: CoverageFormat;
  coverageFile?: string;
  /** A percent, as typed: parsed here (a bad one is a usage error before anything runs). */
  minCoverage?: string;
  /**
   * --coverage-changed <base-dir>: the base policy directory (a pull request's target branch); every
   * rule and time-window branch the tested set adds or edits against it must be covered.
   */
  coverageChanged?: string;
  /** --strict: a warning of the policy set or a suite fails the run (exit 1), as validate --strict does. */
  strict?: boolean;
}

/** The warnings the run printed: the policy set's and the suites'. */
const runWarnings = (run: TestRun) =>
  [...run.policyProblems, ...run.suites.flatMap((s) => s.problems)].filter((p) => p.severity === 'warning').length;

function testReport(run: TestRun, format: TestFormat): string {
  if (format === 'junit') return reportJunit(run);
  if (format === 'github') return reportGithub(run);
  if (format === 'json') return `${JSON.stringify(run, null, 2)}\n`;
  return reportText(run);
}

const isDocument = (format: TestFormat | CoverageFormat) => format === 'json' || format === 'junit';

/**
 * Writes the test report to stdout and the coverage where it keeps every output readable
 * (docs/test-coverage.md): after the test report when both are text or github; as the run's
 * `coverage` field when both are json; to --coverage-file when given; else to stderr.
 */
function writeReports(
  run: TestRun,
  opts: TestCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  writeErr: (s: string) => void,
): void {
  const { coverage, ...tested } = run;
  if (coverage === undefined) {
    write(testReport(tested, opts.format));
    if (opts.coverage) writeErr('preflight-gate: coverage not measured: no case ran on this policy set\n');
    return;
  }
  const format = opts.coverageFormat ?? (opts.format === 'junit' ? 'text' : opts.format);
  if (format === 'github') writeJobSummary(coverage, env, writeErr);
  if (opts.format === 'json' && format === 'json' && opts.coverageFile === undefined) {
    write(testReport(run, 'json'));
    return;
  }
  write(testReport(tested, opts.format));
  const text = formatCoverage(coverage, format);
  if (opts.coverageFile !== undefined) writeCoverageFile(opts.coverageFile, text);
  else if (isDocument(opts.format) || isDocument(format)) writeErr(text);
  else write(text);
}

/**
 * `preflight-gate test [dir]`: runs the `*.test.yaml` suites against the policy set of `dir`.
 * Exit 0 only when at least one case ran and every suite passed (and, with --min-coverage, the
 * coverage is at least that; with --coverage-changed, every rule and window the set adds or edits
 * against the base is covered; with --strict, no warning was printed); 2 when a suite cannot run as
 * written (TestRun.invalidSuites), an option is invalid or the base directory cannot be read, else 1.
 */
export function testCommand(
  dirArg: string | undefined,
  opts: TestCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  writeErr: (s: string) => void = () => undefined,
): number {
  const minimum = opts.minCoverage === undefined ? undefined : parseMinCoverage(opts.minCoverage);
  const base = opts.coverageChanged === undefined ? undefined : readBasePolicies(opts.coverageChanged);
  const coverage =
    opts.coverage === true ||
    opts.coverageFormat !== undefined ||
    opts.coverageFile !== undefined ||
    minimum !== undefined ||
    base !== undefined;
  const dir = policyDirArg(dirArg, env);
  const run = testPolicyDir(dir, env, new Date(), coverage ? { coverage: { minimum, base } } : {});
  writeReports(run, { ...opts, coverage }, env, write, writeErr);
  if (!run.ok) return run.invalidSuites ? EXIT.usage : EXIT.failed;
  const warnings = runWarnings(run);
  if (opts.strict && warnings > 0) {
    writeErr(`preflight-gate: ${warnings} warning${warnings === 1 ? '' : 's'} (see above) and --strict: failing\n`);
    return EXIT.failed;
  }
  // Both verdicts are said when both fail: a pull request learns everything it has to fix at once.
  let failed = false;
  if (run.coverage?.belowMinimum) {
    writeErr(`preflight-gate: ${coverageVerdict(run.coverage)}\n`);
    failed = true;
  }
  if (run.coverage && changesUncovered(run.coverage)) {
    const missing = uncoveredChanges(run.coverage).map(
      ({ file, entry }) => `  ${file}:${entry.line}:${entry.col} ${uncoveredText(entry)}\n`,
    );
    writeErr(`preflight-gate: ${changedVerdict(run.coverage)}:\n${missing.join('')}`);
    failed = true;
  }
  return failed ? EXIT.failed : EXIT.ok;
}
