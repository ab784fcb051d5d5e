import type { PolicyBundle } from '../policy/core/compiled';

const watching = new WeakMap<PolicyBundle, boolean>();

/**
 * Whether a guarded view has a `deadMan` rule (docs/guard.md, "Dead man"): only then does a tick
 * read and write each run's silences. Once per view (a bundle is never changed).
 */
export function watchesSilence(view: PolicyBundle): boolean {
  let answer = watching.get(view);
  if (answer === undefined) {
    answer = view.policies.some((p) => p.rules.some((r) => r.deadMan === true));
    watching.set(view, answer);
  }
  return answer;
}
