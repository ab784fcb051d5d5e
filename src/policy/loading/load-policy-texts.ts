import { loadBundle, type LoadResult } from './load-bundle';
import type { LoadProblem } from '../compile/load-error';
import { POLICY_FILE, TEST_FILE } from './policy-file-names';
import type { SourceFile } from '../compile/yaml-source';

/** Policy files by name (`{"prod.yaml": "<YAML text>"}`): the input of the loader without a file system. */
export type PolicyTexts = Readonly<Record<string, string>>;

const problem = (file: string, message: string): LoadProblem => ({
  file,
  line: 1,
  col: 1,
  path: '',
  message,
  severity: 'error',
});

/**
 * Loads a set of policy files, whoever read them: `where` names the set in the message for an empty
 * one (a directory, or the playground's files). The one path from texts to a bundle, used by
 * loadPolicyDir (the service, the CLI) and by the playground page.
 */
export function loadPolicySources(sources: readonly SourceFile[], now: Date, where: string): LoadResult {
  if (sources.length === 0)
    return {
      ok: false,
      problems: [problem(where, 'no policy files (*.yaml, *.yml) found: refusing to run with an empty policy set')],
    };
  return loadBundle(sources, now);
}

/**
 * Loads policy files given as texts by name (the playground, share links). Pure: no file system.
 * A name the service would not load as a policy file (not *.yaml / *.yml, or a *.test.yaml suite)
 * is an error naming it, never silently skipped.
 */
export function loadPolicyTexts(texts: PolicyTexts, now: Date): LoadResult {
  const names = Object.keys(texts).sort();
  const misnamed = names.filter((name) => !POLICY_FILE.test(name) || TEST_FILE.test(name));
  if (misnamed.length > 0)
    return {
      ok: false,
      problems: misnamed.map((name) =>
        problem(
          name,
          TEST_FILE.test(name)
            ? 'a test suite (*.test.yaml), not a policy file: the service does not load it; rename it to <name>.yaml'
            : 'not a policy file name: the service loads *.yaml and *.yml files only; rename it to <name>.yaml',
        ),
      ),
    };
  const sources = names.map((name) => ({ file: name, key: name, text: texts[name] }));
  return loadPolicySources(sources, now, '(policy files)');
}
