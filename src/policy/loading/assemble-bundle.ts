import type { CompiledException, PolicyBundle } from '../core/compiled';
import { invertAliases } from '../engine/environments';
import { buildEnvironmentNames } from '../engine/environment-names';
import { exceptionsByPolicy } from '../engine/exceptions-for';
import { collectNeeds, type Need } from '../facts/need';
import { buildPolicyIndex } from '../engine/policy-index';

/** The compiled parts a bundle is made of (policies in bundle order: priority, then name, built-in first). */
export type BundleParts = Pick<
  PolicyBundle,
  'revision' | 'loadedAt' | 'files' | 'policies' | 'exceptions' | 'aliases'
> &
  Partial<Pick<PolicyBundle, 'exceptionSettings'>>;

/** An exception with maxUses needs its use count from the state store (docs/approvals.md). */
const useNeeds = (e: CompiledException): { needs: readonly Need[] } => ({
  needs: e.maxUses === undefined ? [] : [{ kind: 'exception-uses', exception: e.name }],
});

/**
 * A bundle from its compiled parts, with everything derived from them at load: the index, the needs,
 * the lookups a decision reads. Read-only from here on: a decision never writes to it or fills a
 * cache keyed by it (docs/decisions/0004-per-evaluation-context.md).
 */
export function assembleBundle(parts: BundleParts): PolicyBundle {
  const policies = Object.freeze([...parts.policies]);
  const exceptions = Object.freeze([...parts.exceptions]);
  return Object.freeze({
    revision: parts.revision,
    loadedAt: parts.loadedAt,
    files: Object.freeze([...parts.files]),
    policies,
    exceptions,
    ...(parts.exceptionSettings ? { exceptionSettings: parts.exceptionSettings } : {}),
    aliases: parts.aliases,
    aliasesById: invertAliases(parts.aliases),
    environmentNames: buildEnvironmentNames(
      parts.aliases,
      policies.flatMap((p) => p.matchSpec?.environments ?? []),
    ),
    exceptionsByPolicy: exceptionsByPolicy(exceptions),
    index: buildPolicyIndex(policies),
    // Rules' needs, and the environment names scopes that list environments need.
    needs: collectNeeds([
      ...policies.flatMap((p) => [...p.rules, p.match, p.exclude]),
      ...exceptions.map((e) => e.match),
      ...exceptions.map(useNeeds),
    ]),
  });
}
