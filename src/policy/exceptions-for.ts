import type { CompiledException } from './compiled';

/** Each bundle's exceptions by the policy they waive, in bundle order: sorted out once, not per violation. */
const byPolicy = new WeakMap<readonly CompiledException[], ReadonlyMap<string, readonly CompiledException[]>>();

/** The exceptions that name this policy (most policies have none). */
export function exceptionsFor(policy: string, exceptions: readonly CompiledException[]): readonly CompiledException[] {
  let map = byPolicy.get(exceptions);
  if (!map) {
    const out = new Map<string, CompiledException[]>();
    for (const e of exceptions) {
      const named = out.get(e.policy);
      if (named) named.push(e);
      else out.set(e.policy, [e]);
    }
    byPolicy.set(exceptions, (map = out));
  }
  return map.get(policy) ?? [];
}
