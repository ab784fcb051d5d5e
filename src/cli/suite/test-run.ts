import { ignoredFileProblems } from '../../policy/loading/ignored-policy-files';
import { loadPolicyDirSources } from '../../policy/loading/load-policy-dir';
import type { BasePolicies } from '../coverage/base-policies';
import { coveragePlan } from '../coverage/coverage-plan';
import { CoverageRecorder } from '../coverage/coverage-recorder';
import { coverageReport, type CoverageReport } from '../coverage/coverage-report';
import { servedBundle } from '../../policy/runtime/served-bundle';
import type { LoadProblem } from '../../policy/compile/load-error';
import { loadSuites } from './load-suites';
import { couldNotRun, runSuites, suiteErrorsText, type SuiteReport } from './run-suites';

export interface TestRun {
  dir: string;
  ok: boolean;
  revision?: string;
  /** Problems of the policy set itself; when it has errors no case runs. */
  policyProblems: LoadProblem[];
  suites: SuiteReport[];
  /** Why the run failed as a whole (no suites, invalid policy set); undefined otherwise. */
  fatal?: string;
  /**
   * A suite cannot run as written: a schema error, an unknown policy name, malformed state facts,
   * a case whose payload or patch cannot apply. `test` then exits 2 (a usage error), not 1.
   */
  invalidSuites: boolean;
  /**
   * `failedSuites` counts the suites that could not run too (`notRunSuites` of them); `cases` the
   * cases that ran, `notRun` the cases of the suites that could not run (left untested), except
   * those of the `uncountedSuites`: suites that could not run whose file is not valid YAML, so how
   * many cases they hold is unknown.
   */
  counts: {
    suites: number;
    failedSuites: number;
    notRunSuites: number;
    cases: number;
    passed: number;
    failed: number;
    notRun: number;
    uncountedSuites: number;
  };
  /** With `coverage`: what the cases exercised (docs/test-coverage.md); absent when no case could run (an invalid policy set). */
  coverage?: CoverageReport;
}

export interface TestOptions {
  /**
   * Measure coverage; `minimum` is --min-coverage (a percent), `base` the policy set of
   * --coverage-changed (what the rules and windows are compared with).
   */
  coverage?: { minimum?: number; base?: BasePolicies };
}

const invalid = (suites: readonly SuiteReport[]) =>
  suites.some((s) => s.problems.some((p) => p.severity === 'error') || s.cases.some((c) => c.cannotRun));

function count(suites: readonly SuiteReport[]): TestRun['counts'] {
  const cases = suites.flatMap((s) => s.cases);
  const passed = cases.filter((c) => c.ok).length;
  const notRun = suites.filter((s) => s.notRunReason !== undefined);
  return {
    suites: suites.length,
    failedSuites: suites.filter((s) => !s.ok).length,
    notRunSuites: notRun.length,
    cases: cases.length,
    passed,
    failed: cases.length - passed,
    notRun: notRun.reduce((n, s) => n + s.notRun, 0),
    uncountedSuites: notRun.filter((s) => s.written === null).length,
  };
}

/** Loads the policy set (with the built-in policies, as the service serves it) and every test suite in `dir`, runs the cases, and judges the whole run. */
export function testPolicyDir(
  dir: string,
  env: NodeJS.ProcessEnv,
  now: Date = new Date(),
  opts: TestOptions = {},
): TestRun {
  const { loaded, sources } = loadPolicyDirSources(dir, now);
  const suites = loadSuites(dir);
  const policyProblems = [...(loaded.ok ? loaded.warnings : loaded.problems), ...ignoredFileProblems(dir)];
  if (!loaded.ok) {
    const reports: SuiteReport[] = suites.map((s) =>
      couldNotRun(
        { file: s.file, name: s.name, ok: false, problems: s.problems, cases: [] },
        s.written,
        s.problems.some((p) => p.severity === 'error')
          ? suiteErrorsText(s.problems)
          : 'the policy set is invalid (see its errors above)',
      ),
    );
    return {
      dir,
      ok: false,
      policyProblems,
      suites: reports,
      fatal: 'the policy set is invalid, so no case ran (run `preflight-gate validate`)',
      invalidSuites: invalid(reports),
      counts: count(reports),
    };
  }
  const plan = opts.coverage ? coveragePlan(loaded.bundle, sources, opts.coverage.base) : undefined;
  const recorder = plan ? new CoverageRecorder(plan) : undefined;
  const reports = runSuites(suites, servedBundle(loaded.bundle, env), recorder && ((b, d) => recorder.record(b, d)));
  const counts = count(reports);
  const fatal =
    suites.length === 0
      ? `no policy test suites (*.test.yaml) found in ${dir}: nothing was tested`
      : counts.cases === 0
        ? 'no case ran'
        : undefined;
  const ok = fatal === undefined && counts.failedSuites === 0;
  return {
    dir,
    ok,
    revision: loaded.bundle.revision,
    policyProblems,
    suites: reports,
    fatal,
    invalidSuites: invalid(reports),
    counts,
    ...(plan && recorder
      ? {
          coverage: coverageReport(
            plan,
            recorder.tally,
            loaded.bundle.files,
            opts.coverage?.minimum,
            opts.coverage?.base?.dir,
          ),
        }
      : {}),
  };
}
