import type { CompiledException, ExceptionsByPolicy } from '../core/compiled';

export type { ExceptionsByPolicy } from '../core/compiled';

/** The exceptions grouped by the policy they name: once per bundle at load (PolicyBundle.exceptionsByPolicy), not per violation. */
export function exceptionsByPolicy(exceptions: readonly CompiledException[]): ExceptionsByPolicy {
  const out = new Map<string, CompiledException[]>();
  for (const e of exceptions) {
    const named = out.get(e.policy);
    if (named) named.push(e);
    else out.set(e.policy, [e]);
  }
  return out;
}
