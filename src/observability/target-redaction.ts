import type { AttributeRedaction } from './audit-config';

export const REDACTED = '[redacted]';

type Loose = Record<string, unknown>;
const isObject = (v: unknown): v is Loose => typeof v === 'object' && v !== null && !Array.isArray(v);
const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

function stepsOf(steps: unknown): Loose[] {
  return list(steps).filter(isObject).flatMap((s) => [s, ...stepsOf(s.validations)]);
}

/**
 * The target values to mask in an audit line of this body: attribute values (of every key, or of the
 * listed keys) and, when everything is redacted, target names. Reads the body leniently, so it works
 * on a validated payload and on a body that failed validation alike.
 */
export function targetValuesToRedact(body: unknown, redaction: AttributeRedaction): string[] {
  if (redaction.kind === 'none' || !isObject(body) || !isObject(body.execution)) return [];
  const keys = redaction.kind === 'keys' ? new Set(redaction.keys) : undefined;
  const values = new Set<string>();
  for (const step of stepsOf(body.execution.steps)) {
    for (const target of list(step.targetExecutions).filter(isObject)) {
      if (!keys && typeof target.name === 'string') values.add(target.name);
      for (const a of list(target.attributes).filter(isObject)) {
        if (typeof a.value === 'string' && (!keys || (typeof a.key === 'string' && keys.has(a.key)))) values.add(a.value);
      }
    }
  }
  values.delete('');
  // Longest first, so a value that contains another is masked whole.
  return [...values].sort((a, b) => b.length - a.length);
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// A token goes on through letters, digits, "_", "-" and a "." between two of those: a value
// "prod" is its own token in "namespace prod." and "ns=prod", not in "production", "no-prod-runs"
// or "web-1.prod" (which, when it is a target value itself, is masked whole).
const NOT_AFTER = '(?<![A-Za-z0-9_-]|[A-Za-z0-9_-]\\.)';
const NOT_BEFORE = '(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])';

/** One pattern per list of values: an audit line redacts many strings with the same list. */
const patterns = new WeakMap<readonly string[], RegExp>();

function patternFor(values: readonly string[]): RegExp {
  let pattern = patterns.get(values);
  if (!pattern) patterns.set(values, (pattern = new RegExp(`${NOT_AFTER}(?:${values.map(escape).join('|')})${NOT_BEFORE}`, 'g')));
  return pattern;
}

/** Masks every occurrence of the values in a text where the occurrence is a token of its own. */
export function redactText(text: string, values: readonly string[]): string {
  if (values.length === 0) return text;
  // replace() starts a global pattern at index 0 and leaves lastIndex at 0: safe to share.
  return text.replace(patternFor(values), REDACTED);
}

/** Masks the values in every string of a JSON-like value (arrays and plain objects are walked). */
export function redactDeep<T>(value: T, values: readonly string[]): T {
  if (values.length === 0) return value;
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return redactText(v, values);
    if (Array.isArray(v)) return v.map(walk);
    if (isObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  return walk(value) as T;
}
