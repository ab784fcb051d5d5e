import { readFileSync } from 'node:fs';
import type { SourceRef } from '../policy/core/decision';
import { BUILT_IN_FILE } from '../policy/compile/built-in-policies';
import { parseYamlSource } from '../policy/compile/yaml-source';
import { readPolicyDir } from '../policy/loading/read-policy-dir';
import type { PolicySet } from './policy-set';
import { writtenValues } from './terms';

/** `rules[0].timeWindow` -> ['rules', 0, 'timeWindow']. */
export const pathSegments = (path: string): Array<string | number> =>
  [...path.matchAll(/([^.[\]]+)|\[(\d+)\]/g)].map((m) => (m[2] === undefined ? m[1] : Number(m[2])));

type Segment = string | number;

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === 'object' && !Array.isArray(v);

/**
 * The first field where `after` differs from `before` (both as written, YAML to plain data), as a
 * path into `after`: the deepest that differs, or the nearest one `after` still has when a field was
 * removed or a list changed length. Undefined when they are equal.
 */
export function firstDifference(before: unknown, after: unknown, at: Segment[] = []): Segment[] | undefined {
  if (JSON.stringify(before) === JSON.stringify(after)) return undefined;
  if (isObject(before) && isObject(after)) {
    for (const key of Object.keys(after)) {
      if (!(key in before)) return [...at, key];
      const inner = firstDifference(before[key], after[key], [...at, key]);
      if (inner) return inner;
    }
    return at; // a field removed: the object that no longer has it
  }
  if (Array.isArray(before) && Array.isArray(after) && before.length === after.length)
    for (const [i, item] of after.entries()) {
      const inner = firstDifference(before[i], item, [...at, i]);
      if (inner) return inner;
    }
  return at;
}

/**
 * The changed field of a rule the diff found (docs/prove.md, "In a pull request"): in the rule's entry
 * (`rules[2]`), else in the policy's scope (`match`, `exclude`), compared with the base's policy;
 * undefined when the base has no such policy or neither changed (an exception or an alias did).
 */
function changedField(base: PolicySet, proposed: PolicySet, policy: string, rule: Segment[]): Segment[] | undefined {
  const before = base.policies.get(policy);
  const after = proposed.policies.get(policy);
  if (before === undefined || after === undefined) return undefined;
  const read = (doc: unknown, path: readonly Segment[]) =>
    path.reduce<unknown>(
      (v, k) => (isObject(v) || Array.isArray(v) ? (v as Record<string, unknown>)[k] : undefined),
      doc,
    );
  for (const path of [rule, ['match'], ['exclude']]) {
    const a = read(after, path);
    if (a === undefined) continue;
    const found = firstDifference(read(before, path), a, [...path]);
    if (found) return found;
  }
  return undefined;
}

/**
 * Where a rule of the set is written (`rules[2]` of policy `production-guardrails`: its file, line and
 * column), at the field that changed when the base set is given (the exception added or changed when
 * only an exception waiving its policy did, the alias when only an alias did), else where its policy is; undefined when the set has no such policy or it is built in
 * (a pull request's annotation then names no file).
 */
export function ruleLocation(
  set: PolicySet,
  rule: { policy: string; path?: string },
  base?: PolicySet,
): SourceRef | undefined {
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
  const entry = pathSegments(rule.path).slice(0, 2);
  // The changed field, compared with the base (`maxPercentage: 30`); else the rule's entry
  // (`- environments: ...`), not its spec: where the reviewer reads the rule.
  const changed = base ? changedField(base, set, rule.policy, entry) : undefined;
  // Neither the rule nor its scope changed, but an exception waiving its policy did: that exception.
  const waiver =
    base && changed === undefined && base.policies.has(rule.policy)
      ? changedException(base, set, rule.policy)
      : undefined;
  if (waiver) return waiver;
  // Nor an exception: an alias the policy names (an EnvironmentAliases document) changed.
  const alias =
    base && changed === undefined && base.policies.has(rule.policy) ? changedAlias(base, set, rule.policy) : undefined;
  if (alias) return alias;
  const at = doc?.locate(changed ?? entry, 'value');
  return at ? { file: policy.source.file, ...at } : policy.source;
}

/**
 * Where the first exception waiving `policy` that the proposed set adds or writes otherwise than the
 * base is (its document: file, line); undefined when none did (an alias changed, or an exception was
 * only removed, which the proposed set has no line for).
 */
function changedException(base: PolicySet, proposed: PolicySet, policy: string): SourceRef | undefined {
  const before = new Map(base.exceptions.map((d) => [d.name, JSON.stringify(d)]));
  const doc = proposed.exceptions.find((d) => d.policy === policy && before.get(d.name) !== JSON.stringify(d));
  if (doc === undefined) return undefined;
  return proposed.bundle.exceptions.find((e) => e.name === doc.name && e.policy === policy)?.source;
}

/**
 * Where the proposed set writes the first alias (in the aliases' order) whose ids differ from the
 * base's, among those the policy (or an exception to it) names, else among all (the ids of an alias a
 * rule names decide which environments it lists: terms.ts, aliasesRead): the alias's list in the
 * first EnvironmentAliases document that has it. Undefined when no alias the proposed set writes
 * changed, or an alias the policy names was removed (the proposed set has no line for it).
 */
function changedAlias(base: PolicySet, proposed: PolicySet, policy: string): SourceRef | undefined {
  const same = (alias: string) => JSON.stringify(proposed.aliases[alias]) === JSON.stringify(base.aliases[alias]);
  const changed = Object.keys(proposed.aliases).filter((alias) => !same(alias));
  if (changed.length === 0) return undefined;
  const docs = [proposed.policies.get(policy) ?? {}, ...proposed.exceptions.filter((e) => e.policy === policy)];
  const named = new Set((writtenValues(docs).get('env') ?? []).map((e) => e.toLowerCase()));
  // An alias the policy names that the proposed set no longer has: no line to point at (the rule's entry).
  if (Object.keys(base.aliases).some((a) => named.has(a.toLowerCase()) && !Object.hasOwn(proposed.aliases, a)))
    return undefined;
  const alias = changed.find((a) => named.has(a.toLowerCase())) ?? changed[0];
  for (const source of readPolicyDir(proposed.dir))
    for (const doc of parseYamlSource(source).documents) {
      const v = doc.value as Record<string, unknown> | null;
      if (v?.kind === 'EnvironmentAliases' && isObject(v.aliases) && Object.hasOwn(v.aliases, alias))
        return { file: source.file, ...doc.locate(['aliases', alias], 'value') };
    }
  return undefined;
}
