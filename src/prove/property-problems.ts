import type { LoadProblem } from '../policy/compile/load-error';
import { policyKindOf } from '../policy/loading/policy-kind-of';
import { policyReferences } from '../policy/loading/policy-references';
import { readPolicyDir } from '../policy/loading/read-policy-dir';
import type { SourceFile } from '../policy/compile/yaml-source';
import { propertiesOf } from './property-file';
import { unknownEnvironmentWarnings } from './property-names';

/**
 * What `validate` says about the properties below `dir` (`*.property.yaml`, docs/prove.md): each
 * that no longer parses or compiles is an error at its file and line, as a policy's would be; an
 * environment a property names that the set (`policySources`, as written) no longer knows is a
 * warning. A file holding a policy is left to misplacedPolicies (one error, not two); an unreadable
 * directory to the loader.
 */
export function propertyProblems(dir: string, policySources: readonly SourceFile[], now: Date): LoadProblem[] {
  let sources: SourceFile[];
  try {
    sources = readPolicyDir(dir, { properties: true }).filter((s) => policyKindOf(s) === undefined);
  } catch {
    return [];
  }
  if (sources.length === 0) return [];
  const refs = policyReferences(policySources);
  const aliases: Record<string, string[]> = {};
  for (const a of refs.aliases) aliases[a.alias] = [...(aliases[a.alias] ?? []), ...a.ids];
  const { properties, problems } = propertiesOf(sources, aliases, now);
  const known = [...refs.environments.map((e) => e.value), ...refs.aliases.flatMap((a) => [a.alias, ...a.ids])];
  return [...problems, ...unknownEnvironmentWarnings(properties, sources, known)];
}
