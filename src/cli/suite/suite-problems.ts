import type { PolicyBundle } from '../../policy/core/compiled';
import type { LoadProblem } from '../../policy/loading/load-error';
import type { LoadedSuite } from './load-suites';
import { runSuites } from './run-suites';

/**
 * What `validate` reports of the suites: on a valid policy set, every problem `test` would refuse
 * them for (their own, an expectation naming no policy of the set, a case whose payload, signals
 * or state cannot be read), found by running them as `test` does; else their own problems only.
 */
export function suiteProblems(suites: readonly LoadedSuite[], bundle: PolicyBundle | undefined): LoadProblem[] {
  if (bundle === undefined) return suites.flatMap((s) => s.problems);
  const cannotRun: LoadProblem[] = [];
  const reports = runSuites(suites, bundle, undefined, (p) => cannotRun.push(p));
  return [...reports.flatMap((r) => r.problems), ...cannotRun];
}
