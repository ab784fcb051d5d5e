import { isJsonObject, type JsonObject } from '../json-object';
import { MASKED } from './archive-record';

/** Copy on write: `list` itself when `each` changed no element, else a copy with the changes. */
function mapSame(list: unknown[], each: (item: unknown) => unknown): unknown[] {
  let out: unknown[] | undefined;
  list.forEach((item, i) => {
    const next = each(item);
    if (next !== item) (out ??= [...list])[i] = next;
  });
  return out ?? list;
}

/** Masks the values of listed keys in payloads; collects every value it masked (to mask them in texts too). */
class Masker {
  readonly values = new Set<string>();
  constructor(private readonly keys: ReadonlySet<string>) {}

  private listed(o: JsonObject): boolean {
    return typeof o.key === 'string' && this.keys.has(o.key);
  }

  /** A target attribute `{key, value}` of a listed key. */
  attribute = (a: unknown): unknown => {
    if (!isJsonObject(a) || !this.listed(a) || a.value === undefined || a.value === MASKED) return a;
    if (typeof a.value === 'string') this.values.add(a.value);
    return { ...a, value: MASKED };
  };

  /** A radius predicate, at any depth: a leaf `{key, operator, values}` of a listed key has its values masked. */
  predicate = (p: unknown): unknown => {
    if (Array.isArray(p)) return mapSame(p, this.predicate);
    if (!isJsonObject(p)) return p;
    if (this.listed(p) && Array.isArray(p.values)) {
      for (const v of p.values) if (typeof v === 'string') this.values.add(v);
      return { ...p, values: p.values.map(() => MASKED) };
    }
    let out: JsonObject | undefined;
    for (const [k, v] of Object.entries(p)) {
      const next = typeof v === 'object' && v !== null ? this.predicate(v) : v;
      if (next !== v) (out ??= { ...p })[k] = next;
    }
    return out ?? p;
  };

  target = (t: unknown): unknown => {
    if (!isJsonObject(t) || !Array.isArray(t.attributes)) return t;
    const attributes = mapSame(t.attributes, this.attribute);
    return attributes === t.attributes ? t : { ...t, attributes };
  };

  step = (step: unknown): unknown => {
    if (!isJsonObject(step)) return step;
    let out: JsonObject | undefined;
    if (Array.isArray(step.targetExecutions)) {
      const targets = mapSame(step.targetExecutions, this.target);
      if (targets !== step.targetExecutions) (out ??= { ...step }).targetExecutions = targets;
    }
    if (isJsonObject(step.radius) && step.radius.predicate !== undefined) {
      const predicate = this.predicate(step.radius.predicate);
      if (predicate !== step.radius.predicate) (out ??= { ...step }).radius = { ...step.radius, predicate };
    }
    if (Array.isArray(step.validations)) {
      const validations = mapSame(step.validations, this.step);
      if (validations !== step.validations) (out ??= { ...step }).validations = validations;
    }
    return out ?? step;
  };
}

/**
 * The payload with the values of the listed attribute keys replaced by MASKED wherever a step
 * states them: its targets' attributes and its radius predicate (which selects targets by them),
 * in every step and nested validation; and the values it masked. The payload itself is never
 * changed (the decision still reads it).
 */
export function maskAttributes(payload: unknown, keys: ReadonlySet<string>): { payload: unknown; values: string[] } {
  if (
    keys.size === 0 ||
    !isJsonObject(payload) ||
    !isJsonObject(payload.execution) ||
    !Array.isArray(payload.execution.steps)
  )
    return { payload, values: [] };
  const masker = new Masker(keys);
  const steps = mapSame(payload.execution.steps, masker.step);
  const values = [...masker.values].filter((v) => v !== '' && v !== MASKED);
  return {
    payload: steps === payload.execution.steps ? payload : { ...payload, execution: { ...payload.execution, steps } },
    values,
  };
}
