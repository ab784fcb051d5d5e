import { readFileSync } from 'node:fs';
import type { SourceRef } from '../policy/core/decision';
import { BUILT_IN_FILE } from '../policy/compile/built-in-policies';
import { parseYamlSource } from '../policy/compile/yaml-source';
import type { PolicySet } from './policy-set';

/** `rules[0].timeWindow` -> ['rules', 0, 'timeWindow']. */
export const pathSegments = (path: string): Array<string | number> =>
  [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));

/**
 * Where a rule of the set is written (`rules[2]` of policy `production-guardrails`: its file, line and
 * column), else where its policy is; undefined when the set has no such policy or it is built in
 * (a pull request's annotation then names no file).
 */
export function ruleLocation(set: PolicySet, rule: { policy: string; path?: string }): SourceRef | undefined {
  const policy = set.bundle.policies.find((p) => p.name === rule.policy);
  if (policy === undefined || policy.source.file === BUILT_IN_FILE) return undefined;
  if (rule.path === undefined) return policy.source;
  let text: string;
  try {
    text = readFileSync(policy.source.file, 'utf8');
  } catch {
    return policy.source; // the file changed under us: the policy's line is what is known
  }
  const doc = parseYamlSource({ file: policy.source.file, text }).documents.find((d) => {
    const v = d.value as Record<string, unknown>;
    return v?.kind === 'Policy' && v.name === rule.policy;
  });
  const segments = pathSegments(rule.path);
  // The rule's entry (`- environments: ...`), not its spec: where the reviewer reads the rule.
  const at = doc?.locate(segments.slice(0, 2), 'value');
  return at ? { file: policy.source.file, ...at } : policy.source;
}
