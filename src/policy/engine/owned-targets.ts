import type { OwnedBySpec } from '../core/compiled-scope';
import type { EvaluationContext } from '../core/evaluation-context';
import { memoKey } from '../core/memo';
import { isTargeted } from '../core/targeted-step';
import { stepName } from './step-text';

/** What a run reaches of one team's targets (`match.ownedBy`, docs/policies.md#targets-owned-by-a-team). */
export interface Ownership {
  /** The owned targets reached, as the denial names them: `checkout-7d9f (k8s.label.team=checkout)`, each once. */
  owned: string[];
  /** The values of the attribute the run's targets carry, each once: the skip reason names them. */
  seen: string[];
  /**
   * Why it cannot be told whether the run reaches a target of the team, when no target is known
   * to be the team's: a step that does not list every target it expects, or (whenMissing: deny)
   * a listed target without the attribute. Unknown never reads as "not owned".
   */
  unknown?: string;
}

/** At most this many owned targets are named in a denial, then a count. */
const MAX_NAMED = 5;

const OWNERSHIPS = memoKey<Map<string, Ownership>>("what the run reaches of each ownedBy scope's targets");

/** A step that does not list every target it expects, named as the reason says it. */
function unlisted(ctx: EvaluationContext): string | undefined {
  for (const ref of ctx.actionSteps) {
    if (!isTargeted(ref.step)) continue;
    const listed = Array.isArray(ref.step.targetExecutions) ? ref.step.targetExecutions.length : 0;
    const expected = ref.step.totalTargetCount;
    if ((listed === 0 && expected !== 0) || (typeof expected === 'number' && expected > listed))
      return `${stepName(ref)} lists ${listed} of its ${expected ?? 'unknown number of'} targets`;
  }
  return undefined;
}

function ownershipOf(spec: OwnedBySpec, isOwner: (value: string) => boolean, ctx: EvaluationContext): Ownership {
  const owned = new Set<string>();
  const seen = new Set<string>();
  let missing: string | undefined;
  for (const ref of ctx.actionSteps) {
    if (!isTargeted(ref.step) || !Array.isArray(ref.step.targetExecutions)) continue;
    for (const target of ref.step.targetExecutions) {
      const name = typeof target.name === 'string' && target.name !== '' ? target.name : '(unnamed target)';
      let carries = false;
      for (const a of target.attributes ?? []) {
        if (a.key !== spec.attribute || typeof a.value !== 'string') continue;
        carries = true;
        seen.add(a.value);
        if (isOwner(a.value)) owned.add(`${name} (${spec.attribute}=${a.value})`);
      }
      if (!carries && spec.whenMissing !== 'notOwned')
        missing ??= `target ${name} of ${stepName(ref)} carries no ${spec.attribute} (Steadybit sends only the attributes in the preflight webhook's targetAttributeIncludes; include ${spec.attribute} there)`;
    }
  }
  const gap = owned.size > 0 ? undefined : (unlisted(ctx) ?? missing);
  return {
    owned: [...owned],
    seen: [...seen],
    ...(gap === undefined
      ? {}
      : { unknown: `${gap}, so whether the run reaches targets owned by team ${spec.team} is not known` }),
  };
}

/**
 * What the run reaches of the team's targets, judged once per decision for each distinct spec
 * (policies repeating one ownedBy share the answer). A target is owned when its `attribute` is the
 * team key (ignoring case) or, with `values`, one of them (exact); every value a target carries counts.
 */
export function compileOwnership(spec: OwnedBySpec): (ctx: EvaluationContext) => Ownership {
  const key = JSON.stringify([spec.team, spec.attribute, spec.values ?? null, spec.whenMissing ?? 'deny']);
  const values = spec.values === undefined ? undefined : new Set(spec.values);
  const team = spec.team.toUpperCase();
  const isOwner = values === undefined ? (v: string) => v.toUpperCase() === team : (v: string) => values.has(v);
  return (ctx) => {
    const known = ctx.memo.get(OWNERSHIPS, () => new Map<string, Ownership>());
    let ownership = known.get(key);
    if (ownership === undefined) known.set(key, (ownership = ownershipOf(spec, isOwner, ctx)));
    return ownership;
  };
}

/** The owned targets as a denial lists them: at most MAX_NAMED, then how many more. */
export function namedTargets(owned: readonly string[]): string {
  const more = owned.length - MAX_NAMED;
  return owned.slice(0, MAX_NAMED).join(', ') + (more > 0 ? `, and ${more} more` : '');
}
