import {
  COVERAGE_FORMATS,
  formatCoverage,
  type CoverageFormat,
  writeCoverageFile,
  writeJobSummary,
} from '../coverage/coverage-output';
import { parseMinCoverage } from '../coverage/min-coverage';
import { coverageVerdict } from '../coverage/uncovered-text';
import { policyDirArg } from '../read-input';
import { reportGithub } from '../suite/report-github';
import { reportJunit } from '../suite/report-junit';
import { reportText } from '../suite/report-text';
import { testPolicyDir, type TestRun } from '../suite/test-run';
import { EXIT } from '../usage-error';

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
 * coverage is at least that, and with --strict no warning was printed); 2 when a suite cannot run as written (TestRun.invalidSuites) or an
 * option is invalid, else 1.
 */
export function testCommand(
  dirArg: string | undefined,
  opts: TestCommandOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
  writeErr: (s: string) => void = () => undefined,
): number {
  const minimum = opts.minCoverage === undefined ? undefined : parseMinCoverage(opts.minCoverage);
  const coverage =
    opts.coverage === true ||
    opts.coverageFormat !== undefined ||
    opts.coverageFile !== undefined ||
    minimum !== undefined;
  const run = testPolicyDir(policyDirArg(dirArg, env), env, new Date(), coverage ? { coverage: { minimum } } : {});
  writeReports(run, { ...opts, coverage }, env, write, writeErr);
  if (!run.ok) return run.invalidSuites ? EXIT.usage : EXIT.failed;
  const warnings = runWarnings(run);
  if (opts.strict && warnings > 0) {
    writeErr(`preflight-gate: ${warnings} warning${warnings === 1 ? '' : 's'} (see above) and --strict: failing\n`);
    return EXIT.failed;
  }
  if (run.coverage?.belowMinimum) {
    writeErr(`preflight-gate: ${coverageVerdict(run.coverage)}\n`);
    return EXIT.failed;
  }
  return EXIT.ok;
}
