import type { AttributeRedaction } from './attribute-redaction';
import { REDACTED } from './redaction-marker';
import { isJsonObject, type JsonObject } from '../common/json-object';
import { tokenRedactor } from './token-redactor';

// Loops, not filter/flatMap: this runs for every audit line, and the payload is walked once.

/** Adds a target's name (unless only some keys are masked) and its attribute values (of those keys). */
function collectTarget(target: JsonObject, keys: ReadonlySet<string> | undefined, values: Set<string>): void {
  if (!keys && typeof target.name === 'string') values.add(target.name);
  const attributes = target.attributes;
  if (!Array.isArray(attributes)) return;
  for (const a of attributes) {
    if (isJsonObject(a) && typeof a.value === 'string' && (!keys || (typeof a.key === 'string' && keys.has(a.key))))
      values.add(a.value);
  }
}

/**
 * Adds the values of a radius predicate's leaves `{key, operator, values}` (of those keys), at any
 * depth, with a stack instead of recursion: the predicate selects targets by the same values.
 */
function collectPredicate(predicate: unknown, keys: ReadonlySet<string> | undefined, values: Set<string>): void {
  const stack: unknown[] = [predicate];
  while (stack.length > 0) {
    const p = stack.pop();
    if (Array.isArray(p)) {
      for (const item of p) stack.push(item);
      continue;
    }
    if (!isJsonObject(p)) continue;
    if (typeof p.key === 'string' && Array.isArray(p.values)) {
      if (!keys || keys.has(p.key)) for (const v of p.values) if (typeof v === 'string') values.add(v);
      continue;
    }
    for (const v of Object.values(p)) if (typeof v === 'object' && v !== null) stack.push(v);
  }
}

/**
 * Adds the values of the targets (and radius predicates) of these steps and of their validations (steps too), in payload
 * order, with a stack instead of recursion: an error answer's audit line is built from a body that
 * failed validation, nested as deep as 1 MB allows, and must not end in a stack overflow.
 */
function collectValues(steps: unknown, keys: ReadonlySet<string> | undefined, values: Set<string>): void {
  if (!Array.isArray(steps)) return;
  const lists: unknown[][] = [steps];
  const next: number[] = [0];
  while (lists.length > 0) {
    const top = lists.length - 1;
    const list = lists[top];
    if (next[top] >= list.length) {
      lists.pop();
      next.pop();
      continue;
    }
    const step = list[next[top]++];
    if (!isJsonObject(step)) continue;
    if (isJsonObject(step.radius)) collectPredicate(step.radius.predicate, keys, values);
    if (Array.isArray(step.targetExecutions)) {
      for (const target of step.targetExecutions) if (isJsonObject(target)) collectTarget(target, keys, values);
    }
    if (Array.isArray(step.validations)) {
      lists.push(step.validations);
      next.push(0);
    }
  }
}

/**
 * The target values to mask in a text about this body (an audit line, a guard stop, a notification):
 * attribute values (of every key, or of the listed keys) of its targets and radius predicates and,
 * when everything is redacted, target names. Reads the body leniently, so it works
 * on a validated payload and on a body that failed validation alike.
 */
function targetValues(body: unknown, redaction: AttributeRedaction): Set<string> {
  const values = new Set<string>();
  if (redaction.kind === 'none' || !isJsonObject(body) || !isJsonObject(body.execution)) return values;
  collectValues(body.execution.steps, redaction.kind === 'keys' ? new Set(redaction.keys) : undefined, values);
  values.delete('');
  return values;
}

/** targetValues as a list, longest first (a value that contains another is masked whole). */
export function targetValuesToRedact(body: unknown, redaction: AttributeRedaction): string[] {
  const values = targetValues(body, redaction);
  return values.size < 2 ? [...values] : [...values].sort((a, b) => b.length - a.length);
}

/** Masks a text: every occurrence of the values where the occurrence is a token of its own (token-redactor.ts). */
export type Redactor = (text: string) => string;

/**
 * The redactor of this body's target values, for every string of one line (audit, notification,
 * guard stop); undefined when there is nothing to mask. The values are looked up, never sorted.
 */
export function targetRedactor(body: unknown, redaction: AttributeRedaction): Redactor | undefined {
  const values = targetValues(body, redaction);
  return values.size === 0 ? undefined : tokenRedactor(values, REDACTED);
}

/** The redactor of a list of values (where two fit at one place, the longer is masked). */
export function redactor(values: readonly string[]): Redactor {
  return tokenRedactor(new Set(values), REDACTED);
}

export const redactText = (text: string, values: readonly string[]): string => redactor(values)(text);

/** Masks every string of a JSON-like value (arrays and plain objects are walked). */
export function redactDeep<T>(value: T, redact: Redactor): T {
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redact(v);
    if (Array.isArray(v)) return v.map(walk);
    if (isJsonObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
