import type { CompiledException, CompiledPolicy, PolicyBundle } from './compiled';
import type { EnvironmentAliases } from './environments';
import { collectNeeds } from './facts/need';
import { buildPolicyIndex } from './policy-index';

export interface BundleParts {
  revision: string;
  loadedAt: Date;
  files: readonly string[];
  /** In bundle order: priority, then name (built-in policies first). */
  policies: readonly CompiledPolicy[];
  exceptions: readonly CompiledException[];
  aliases: EnvironmentAliases;
}

/** A bundle from its compiled parts, with what is derived from them at load: the index and the needs. Read-only from here on. */
export function assembleBundle(parts: BundleParts): PolicyBundle {
  const policies = Object.freeze([...parts.policies]);
  return Object.freeze({
    revision: parts.revision,
    loadedAt: parts.loadedAt,
    files: Object.freeze([...parts.files]),
    policies,
    exceptions: Object.freeze([...parts.exceptions]),
    aliases: parts.aliases,
    index: buildPolicyIndex(policies),
    needs: collectNeeds(policies.flatMap((p) => p.rules)),
  });
}
