import { policyDirArg } from '../read-input';
import { reportGithub } from '../suite/report-github';
import { reportJunit } from '../suite/report-junit';
import { reportText } from '../suite/report-text';
import { testPolicyDir } from '../suite/test-run';
import { EXIT } from '../usage-error';

export const TEST_FORMATS = ['text', 'junit', 'json', 'github'] as const;
export type TestFormat = (typeof TEST_FORMATS)[number];

/**
 * `preflight-gate test [dir]`: runs the `*.test.yaml` suites against the policy set of `dir`.
 * Exit 0 only when at least one case ran and every suite passed; 2 when a suite cannot run as
 * written (TestRun.invalidSuites), else 1.
 */
export function testCommand(
  dirArg: string | undefined,
  opts: { format: TestFormat },
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): number {
  const run = testPolicyDir(policyDirArg(dirArg, env), env);
  if (opts.format === 'junit') write(reportJunit(run));
  else if (opts.format === 'github') write(reportGithub(run));
  else if (opts.format === 'json') write(`${JSON.stringify(run, null, 2)}\n`);
  else write(reportText(run));
  if (run.ok) return EXIT.ok;
  return run.invalidSuites ? EXIT.usage : EXIT.failed;
}
