import { compileGlobs } from '../core/glob-matcher';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { ACTION_KINDS } from '../engine/scope';
import { actionOf, stepName } from '../engine/step-text';
import type { ActionStepRef, Violation } from '../core/decision';
import { globListSchema } from './glob-list-schema';

interface Spec {
  blocked?: string[];
  allowed?: string[];
  blockedKinds?: string[];
  allowedKinds?: string[];
}

const kinds = (description: string) => ({
  type: 'array',
  minItems: 1,
  uniqueItems: true,
  items: { type: 'string', enum: [...ACTION_KINDS] },
  description,
});

function overlap(a: readonly string[] | undefined, b: readonly string[] | undefined): string | undefined {
  const lower = new Set((b ?? []).map((x) => x.toLowerCase()));
  return (a ?? []).find((x) => lower.has(x.toLowerCase()));
}

/**
 * `- actions: {blocked: ["*shutdown*"]}`, `{allowed: ["com.steadybit.extension_http.*"]}`,
 * `{allowedKinds: [CHECK]}`: judged per action step in the policy's scope.
 */
export const actionsRule = defineRule<Spec>({
  key: 'actions',
  description:
    'Deny steps whose action id or kind is blocked, or not among the allowed ones. Ids are case-insensitive globs.',
  schema: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      blocked: globListSchema('Action id globs no step may run, e.g. "*shutdown*".'),
      allowed: globListSchema('Action id globs; a step running any other action is denied.'),
      blockedKinds: kinds('Action kinds no step may be, e.g. ATTACK.'),
      allowedKinds: kinds('Action kinds; a step of any other kind is denied, e.g. [CHECK].'),
    },
  },
  compile(spec) {
    const both = overlap(spec.blocked, spec.allowed);
    if (both) throw new RuleSpecError(`action "${both}" is both blocked and allowed`, ['allowed']);
    const bothKinds = overlap(spec.blockedKinds, spec.allowedKinds);
    if (bothKinds) throw new RuleSpecError(`action kind ${bothKinds} is both blocked and allowed`, ['allowedKinds']);
    const blocked = spec.blocked?.map((p) => ({ p, m: compileGlobs([p]) }));
    const allowed = spec.allowed && compileGlobs(spec.allowed);
    const blockedKinds = spec.blockedKinds && new Set(spec.blockedKinds);
    const allowedKinds = spec.allowedKinds && new Set(spec.allowedKinds);

    function checkId(ref: ActionStepRef): Violation | undefined {
      if (!blocked && !allowed) return undefined;
      const id = ref.step.actionId;
      if (id === undefined)
        return {
          reason: `cannot decide: ${stepName(ref)} has no actionId, so it cannot be checked against the blocked/allowed actions`,
          step: ref,
          status: 'undecidable',
        };
      const hit = blocked?.find((b) => b.m(id));
      if (hit)
        return {
          reason: `${stepName(ref)} runs action ${id}, which is blocked (matches "${hit.p}")`,
          step: ref,
          value: id,
        };
      if (allowed && !allowed(id))
        return {
          reason: `${stepName(ref)} runs action ${id}, which is not one of the allowed actions (${spec.allowed?.join(', ')})`,
          step: ref,
          value: id,
        };
      return undefined;
    }

    function checkKind(ref: ActionStepRef): Violation | undefined {
      if (!blockedKinds && !allowedKinds) return undefined;
      const kind = ref.step.actionKind?.toUpperCase();
      if (kind === undefined)
        return {
          reason: `cannot decide: ${stepName(ref)} (${actionOf(ref)}) has no actionKind, so it cannot be checked against the action kinds`,
          step: ref,
          status: 'undecidable',
        };
      if (blockedKinds?.has(kind))
        return {
          reason: `${stepName(ref)} runs ${actionOf(ref)}, an action of kind ${kind}, which is blocked`,
          step: ref,
          value: kind,
        };
      if (allowedKinds && !allowedKinds.has(kind)) {
        return {
          reason: `${stepName(ref)} runs ${actionOf(ref)}, an action of kind ${kind}; only ${[...allowedKinds].join(', ')} actions are allowed`,
          step: ref,
          value: kind,
        };
      }
      return undefined;
    }

    return {
      check: findings(({ steps }) => {
        return steps.flatMap((ref) => [checkId(ref), checkKind(ref)].filter((v): v is Violation => v !== undefined));
      }),
    };
  },
});
