import type { CompiledRule, WhileRunning } from '../core/compiled';

/**
 * Rule kinds whose answer can change while a run is in progress: they read the time or live facts
 * (docs/guard.md). Only these are judged again; the others (environments, actions, targets, blast
 * radius, attributes, parameters, and the state counts concurrency, cooldown and quota, which were
 * about starting) are fixed once the run was allowed.
 */
export const RE_JUDGED_KINDS: readonly string[] = ['timeWindow', 'alerts', 'prometheus', 'condition'];

export const isReJudged = (rule: Pick<CompiledRule, 'kind'>): boolean => RE_JUDGED_KINDS.includes(rule.kind);

/** The YAML value of `whileRunning:` as the schema lets it through. */
export type WhileRunningSpec = true | { onCannotJudge?: WhileRunning['onCannotJudge'] };

/**
 * The compiled `whileRunning:` of a policy, or a problem when none of its rules can change during a
 * run (then guarding it would never stop anything: a mistake worth saying at load).
 */
export function compileWhileRunning(
  spec: WhileRunningSpec,
  rules: readonly Pick<CompiledRule, 'kind'>[],
): WhileRunning | string {
  if (!rules.some(isReJudged)) {
    const kinds = [...new Set(rules.map((r) => r.kind))].join(', ') || 'none';
    return `none of this policy's rules can change during a run (its rules: ${kinds}); only ${RE_JUDGED_KINDS.join(', ')} are judged again (docs/guard.md)`;
  }
  return Object.freeze({ onCannotJudge: spec === true ? 'report' : (spec.onCannotJudge ?? 'report') });
}
