import { readFileSync } from 'node:fs';
import { loadPolicyDirSources } from '../../policy/loading/load-policy-dir';
import { writtenDocuments } from '../../policy/loading/written-documents';
import { readPolicyDir } from '../../policy/loading/read-policy-dir';
import { ignoredFileProblems } from '../../policy/loading/ignored-policy-files';
import { formatProblems, problemsFail, type ProblemFormat } from '../format-problems';
import { policyDirArg } from '../read-input';
import { loadSuites } from '../suite/load-suites';
import { suiteProblems } from '../suite/suite-problems';
import { servedBundle } from '../../policy/runtime/served-bundle';
import { EXIT } from '../exit-codes';
import { BadInputError, readSettings } from '../../common/bad-input-error';
import { signalSourceNames } from '../../signals/signals-config';
import { unknownSignalSources } from '../../signals/unknown-signal-sources';
import { propertyProblems } from '../../prove/property-problems';

export interface ValidateOptions {
  format: ProblemFormat;
  /** The deployment's signal sources file (default SIGNAL_SOURCES_FILE): a rule's `source:` must be one it defines. */
  signalSources?: string;
  /** --strict: a warning fails the set as an error does (exit 1), so CI cannot pass with a typo's warning. */
  strict?: boolean;
}

/**
 * `preflight-gate validate [dir]`: every policy file through the service's own loader (schema and
 * semantic checks), plus every test suite: its shape, the payload and signals files it reads (read
 * and checked as `test` reads them) and the policy names its expectations give; and every property
 * (`*.property.yaml`): one that no longer parses or compiles is an error at its line (docs/prove.md).
 * Exit 1 on any error; warnings pass, unless --strict (then a warning is exit 1 too).
 */
export function validateCommand(
  dirArg: string | undefined,
  opts: ValidateOptions,
  env: NodeJS.ProcessEnv,
  write: (s: string) => void,
): number {
  const dir = policyDirArg(dirArg, env);
  const sourcesFile = opts.signalSources ?? (env.SIGNAL_SOURCES_FILE || undefined);
  if (opts.signalSources !== undefined) readableFlagFile('--signal-sources', opts.signalSources);
  const defined = sourcesFile === undefined ? undefined : readSettings(() => signalSourceNames(sourcesFile));
  const { loaded: result, sources } = loadPolicyDirSources(dir);
  const suites = loadSuites(dir);
  const problems = [
    ...(result.ok ? result.warnings : result.problems),
    ...suiteProblems(suites, result.ok ? servedBundle(result.bundle, env) : undefined),
    ...ignoredFileProblems(dir),
    ...propertyProblems(dir, sources, new Date()),
    ...(result.ok && defined !== undefined && sourcesFile !== undefined
      ? unknownSignalSources(result.bundle, defined, sourcesFile, writtenDocuments(sources))
      : []),
  ];
  const files = readPolicyDir(dir).length;
  const revision = result.ok ? result.bundle.revision : undefined;
  const policies = result.ok ? result.bundle.policies.length : undefined;
  const headline = `${dir}: ${files} policy file${files === 1 ? '' : 's'}${policies === undefined ? '' : `, ${policies} polic${policies === 1 ? 'y' : 'ies'}`}, ${suites.length} test suite${suites.length === 1 ? '' : 's'}${revision ? `, revision ${revision}` : ''}`;
  const strict = opts.strict === true;
  write(
    formatProblems(problems, opts.format, { headline, dir, revision, files, policies, suites: suites.length }, strict),
  );
  return problemsFail(problems, strict) ? EXIT.failed : EXIT.ok;
}

/** A file a flag names that cannot be read is a usage error naming the flag (not the variable it stands in for). */
function readableFlagFile(flag: string, file: string): void {
  try {
    readFileSync(file);
  } catch (err) {
    throw new BadInputError(`${flag}: cannot read ${file} (${(err as Error).message})`);
  }
}
