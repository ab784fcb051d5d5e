import { parseDuration } from '../../syntax/duration';
import { readValue, showValue, type ValueKind } from '../../syntax/parameter-value';
import { checkEach, defineRule, RuleSpecError } from '../core/rule-kind';
import { findings } from '../core/checked';
import { stepName } from '../engine/step-text';
import type { ActionStepRef, Violation } from '../core/decision';

type Bound = number | string;
interface Limit {
  min?: Bound;
  max?: Bound;
  whenMissing?: 'deny' | 'allow';
}
type Spec = Record<string, Limit>;

interface CompiledLimit {
  name: string;
  kind: ValueKind;
  min?: number;
  max?: number;
  denyMissing: boolean;
}

const bound = (description: string) => ({ type: ['number', 'string'], minLength: 1, description });

/** Reads one limit's bounds; both bounds of a limit are the same kind (numbers, or durations). */
function compileLimit(name: string, limit: Limit): CompiledLimit {
  const bounds = (['min', 'max'] as const).filter((b) => limit[b] !== undefined);
  if (bounds.length === 0) throw new RuleSpecError(`parameter ${name} needs min or max`, [name]);
  const kinds = new Set(bounds.map((b) => typeof limit[b]));
  if (kinds.size > 1)
    throw new RuleSpecError(
      `parameter ${name} mixes a number and a duration; write both bounds as durations (e.g. 500ms) or both as numbers`,
      [name],
    );
  const kind: ValueKind = kinds.has('string') ? 'duration' : 'number';
  const out: CompiledLimit = { name, kind, denyMissing: limit.whenMissing !== 'allow' };
  checkEach(bounds, (b) => {
    const raw = limit[b] as Bound;
    if (typeof raw === 'string' && /^\s*[\d.]+\s*$/.test(raw)) {
      throw new RuleSpecError(
        `${name}.${b} "${raw}" has no unit: write a number (${raw}) or a duration such as ${raw}s`,
        [name, b],
      );
    }
    const n = typeof raw === 'number' ? raw : parseDuration(raw);
    if (n === undefined)
      throw new RuleSpecError(
        `${name}.${b} "${raw}" is not a duration; use units ms, s, m, h, d as in 500ms, 30s, 5m, 1h30m`,
        [name, b],
      );
    out[b] = n;
  });
  if (out.min !== undefined && out.max !== undefined && out.min > out.max) {
    throw new RuleSpecError(`parameter ${name}: min ${limit.min} is larger than max ${limit.max}`, [name, 'min']);
  }
  return out;
}

/** How a value breaks the limit, as the message says it; undefined when it keeps the limit. */
function breach(l: CompiledLimit, n: number | undefined): string | undefined {
  if (n === undefined) return `which is not a ${l.kind === 'duration' ? 'duration' : 'number'}`;
  if (l.max !== undefined && n > l.max) return `more than the ${showValue(l.kind, l.max)} allowed`;
  if (l.min !== undefined && n < l.min) return `less than the minimum ${showValue(l.kind, l.min)}`;
  return undefined;
}

function judge(ref: ActionStepRef, l: CompiledLimit): Violation | undefined {
  const params = ref.step.parameters;
  const raw = params && Object.hasOwn(params, l.name) ? params[l.name] : undefined;
  if (raw === undefined || raw === null) {
    if (!l.denyMissing) return undefined;
    return {
      reason: `cannot decide: ${stepName(ref)} sends no ${l.name} parameter (preflight requests may omit parameters); scope the policy to actions that have ${l.name} with match.actionIds, or set whenMissing: allow`,
      step: ref,
      value: l.name,
      status: 'undecidable',
    };
  }
  const n = readValue(l.kind, raw);
  const why = breach(l, n);
  if (why === undefined) return undefined;
  const said = JSON.stringify(raw);
  if (n === undefined)
    return {
      reason: `cannot decide: ${stepName(ref)} sets ${l.name} to ${said}, ${why}`,
      step: ref,
      value: said,
      status: 'undecidable',
    };
  return { reason: `${stepName(ref)} sets ${l.name} to ${said}, ${why}`, step: ref, value: said };
}

/**
 * `- parameters: {duration: {max: 5m}, cpuLoad: {min: 1, max: 80, whenMissing: allow}}`: limits on the
 * action parameters of each step in scope. String bounds are durations; numbers in a sent duration
 * are milliseconds; numeric strings (`"80"`) count as numbers.
 */
export const parametersRule = defineRule<Spec>({
  key: 'parameters',
  description:
    'Limit step parameters: numbers (cpuLoad: {max: 80}) or durations (duration: {max: 5m}). A missing parameter denies unless whenMissing: allow.',
  schema: {
    type: 'object',
    minProperties: 1,
    propertyNames: { type: 'string', minLength: 1, syntax: 'trimmed' },
    additionalProperties: {
      type: 'object',
      additionalProperties: false,
      properties: {
        min: bound('Smallest allowed value: a number, or a duration such as 10s.'),
        max: bound('Largest allowed value: a number, or a duration such as 5m.'),
        whenMissing: {
          type: 'string',
          enum: ['deny', 'allow'],
          default: 'deny',
          description: 'What a step that does not send this parameter means.',
        },
      },
    },
    description: 'Parameter name (as in step.parameters) -> limit.',
  },
  compile(spec) {
    const limits = checkEach(Object.entries(spec), ([name, limit]) => compileLimit(name, limit));
    return {
      check: findings(({ steps }) => {
        const out: Violation[] = [];
        for (const ref of steps) {
          for (const l of limits) {
            const v = judge(ref, l);
            if (v) out.push(v);
          }
        }
        return out;
      }),
    };
  },
});
