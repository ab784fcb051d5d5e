import { describeLiteral, describePath } from '../predicate/describe';
import { admitsValue, pinsKey, restricts, type Judgement } from '../predicate/judge-path';
import type { Path } from '../predicate/predicate';
import { predicatePaths } from '../predicate/predicate-paths';
import { defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { stepName } from '../engine/step-text';
import { isTargeted } from '../core/targeted-step';
import type { Memo } from '../core/memo';
import type { ActionStepRef, Violation } from '../core/decision';

interface Spec {
  requireKeys?: string[];
  forbidValues?: Record<string, string[]>;
  denyUnscoped?: boolean;
  onUnknownShape?: 'deny' | 'ignore';
}

const key = { type: 'string', minLength: 1, syntax: 'trimmed' };

/** The first way through the tree that gives `verdict`, with its judgement. */
function firstWith(
  paths: Path[],
  verdict: Judgement['verdict'],
  judge: (p: Path) => Judgement,
): { path: Path; j: Judgement } | undefined {
  for (const path of paths) {
    const j = judge(path);
    if (j.verdict === verdict) return { path, j };
  }
  return undefined;
}

/** How a message points into the predicate: the whole predicate, or one OR branch of it. */
function where(path: Path, paths: Path[], hasPredicate: boolean): string {
  if (!hasPredicate) return 'it has no radius.predicate';
  return paths.length === 1
    ? `its predicate is ${describePath(path)}`
    : `the OR branch ${describePath(path)} of its predicate`;
}

/**
 * `- blastRadius: {requireKeys: [k8s.cluster-name, k8s.namespace], forbidValues: {k8s.namespace: [kube-system]},
 * denyUnscoped: true, onUnknownShape: deny}` over each targeted step's `radius.predicate`.
 */
export const blastRadiusRule = defineRule<Spec>({
  key: 'blastRadius',
  description:
    'Judge radius.predicate: require every way through it to pin given attribute keys, forbid selecting given values, deny predicates that select every target.',
  schema: {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    properties: {
      requireKeys: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: key,
        description:
          'Attribute keys every way through the predicate must pin with EQUALS / EQUALS_IGNORE_CASE (e.g. k8s.cluster-name).',
      },
      forbidValues: {
        type: 'object',
        minProperties: 1,
        propertyNames: key,
        additionalProperties: { type: 'array', minItems: 1, uniqueItems: true, items: key },
        description:
          'Attribute key -> values (exact) the predicate must not be able to select, e.g. {k8s.namespace: [kube-system]}.',
      },
      denyUnscoped: {
        type: 'boolean',
        description: 'Deny targeted steps whose predicate is missing or empty (selects every target of the type).',
      },
      onUnknownShape: {
        type: 'string',
        enum: ['deny', 'ignore'],
        default: 'deny',
        description:
          'deny (default): a predicate part the engine cannot judge (query language, unknown operator) denies as "cannot decide"; ignore: the check it blocks is skipped.',
      },
    },
  },
  compile(spec) {
    const forbid = Object.entries(spec.forbidValues ?? {});
    if (!spec.requireKeys && forbid.length === 0 && spec.denyUnscoped !== true) {
      throw new RuleSpecError('the rule checks nothing: set requireKeys, forbidValues or denyUnscoped: true');
    }
    if (forbid.some(([k]) => k.trim() === ''))
      throw new RuleSpecError('forbidValues has an empty attribute key', ['forbidValues']);

    function undecided(ref: ActionStepRef, what: string, j: Judgement): Violation[] {
      if (spec.onUnknownShape === 'ignore') return [];
      const part = j.because ? describeLiteral(j.because) : 'a part of it';
      return [
        {
          reason: `cannot decide: ${stepName(ref)}: ${what} depends on ${part} in radius.predicate, which the engine cannot judge`,
          step: ref,
          status: 'undecidable',
        },
      ];
    }

    function judgeStep(ref: ActionStepRef, memo: Memo): Violation[] {
      const raw = ref.step.radius?.predicate;
      const hasPredicate = raw !== undefined && raw !== null;
      const paths = hasPredicate ? predicatePaths(raw, memo) : [[]];
      const type = ref.step.radius?.targetType ?? 'any type';
      const out: Violation[] = [];
      if (spec.denyUnscoped) {
        const open = firstWith(paths, 'no', restricts);
        const blind = open ? undefined : firstWith(paths, 'unknown', restricts);
        if (open)
          out.push({
            reason: `${stepName(ref)} is unscoped: ${where(open.path, paths, hasPredicate)}, so it selects every target of ${type}`,
            step: ref,
          });
        else if (blind) out.push(...undecided(ref, 'whether it is scoped', blind.j));
      }
      for (const k of spec.requireKeys ?? []) {
        const miss = firstWith(paths, 'no', (p) => pinsKey(p, k));
        const blind = miss ? undefined : firstWith(paths, 'unknown', (p) => pinsKey(p, k));
        if (miss)
          out.push({
            reason: `${stepName(ref)} is not scoped by ${k}: ${where(miss.path, paths, hasPredicate)}, which does not pin ${k} with EQUALS`,
            step: ref,
            value: k,
          });
        else if (blind) out.push(...undecided(ref, `whether it is scoped by ${k}`, blind.j));
      }
      for (const [k, values] of forbid) {
        for (const v of values) {
          const hit = firstWith(paths, 'yes', (p) => admitsValue(p, k, v));
          const blind = hit ? undefined : firstWith(paths, 'unknown', (p) => admitsValue(p, k, v));
          if (hit) {
            const via = hit.j.because ? describeLiteral(hit.j.because) : k;
            out.push({
              reason: `${stepName(ref)} can select targets with ${k}=${v}, which is forbidden: ${where(hit.path, paths, hasPredicate)} (${via} lets ${v} through)`,
              step: ref,
              value: `${k}=${v}`,
            });
          } else if (blind) out.push(...undecided(ref, `whether it can select ${k}=${v}`, blind.j));
        }
      }
      return out;
    }

    return {
      check: findings(({ ctx, steps }) => {
        return steps.filter((ref) => isTargeted(ref.step)).flatMap((ref) => judgeStep(ref, ctx.memo));
      }),
    };
  },
});
