import { pathText } from '../../validation/field-path';
import type { LocatedError } from '../../validation/field-errors';
import { closest, didYouMean, meantNames } from './near-name';

/**
 * What a schema error may have meant, for every YAML document checked against a schema (policies,
 * test suites): an unknown field gets the closest known one (or those it begins) and the fields
 * allowed there; a value not allowed gets the closest allowed value.
 */

/** Every field name a schema (or several) knows: what a misspelt key is compared with where its object lists none. */
export function fieldNamesOf(schemas: readonly unknown[]): string[] {
  const names = new Set<string>();
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (v && typeof v === 'object') {
      const o = v as Record<string, unknown>;
      if (o.properties && typeof o.properties === 'object') for (const k of Object.keys(o.properties)) names.add(k);
      Object.values(o).forEach(walk);
    }
  };
  walk(schemas);
  return [...names];
}

/** Fields refused where they are not known because they mean something only in one place: why. */
const ONLY_ELSEWHERE: Readonly<Record<string, string>> = {
  ownedBy:
    "it is only in a policy's match (in an exclude or an exception's match, a target without the attribute would let a run escape the owners' policy, docs/policies.md)",
};

/**
 * `: did you mean "expect"? (known fields: name, expect, ...)` for an unknown field (the known
 * fields left out when `listKnown` is false), `: did you mean "stop"?` for a value not allowed, else ''.
 * `fieldNames` stands in for the known fields where the error lists none.
 */
export function schemaSuggestion(e: LocatedError, fieldNames: readonly string[], listKnown = true): string {
  if (e.unknownKey !== undefined) {
    const elsewhere = ONLY_ELSEWHERE[e.unknownKey];
    if (elsewhere !== undefined) return `: ${elsewhere}`;
    const meant = meantNames(e.unknownKey, e.knownFields ?? fieldNames).filter((n) => n !== e.unknownKey);
    const known = e.knownFields === undefined || !listKnown ? '' : ` (known fields: ${e.knownFields.join(', ')})`;
    return `${didYouMean(meant)}${known}`;
  }
  if (e.badValue === undefined || e.allowedValues === undefined) return '';
  const near = closest(e.badValue, e.allowedValues);
  return near === undefined ? '' : didYouMean([near]);
}

/**
 * One line per mistake: the same fault reported through several keywords once, and `expct: ...`
 * (an unknown key whose did-you-mean names a field) without the `expect is required` beside it.
 */
export function onePerMistake(errors: LocatedError[], fieldNames: readonly string[]): LocatedError[] {
  const seen = new Set<string>();
  const unique = errors.filter((e) => {
    const key = `${pathText(e.path)}:${e.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const meant = new Set(
    unique.flatMap((e) =>
      e.unknownKey === undefined
        ? []
        : meantNames(e.unknownKey, e.knownFields ?? fieldNames).map((n) => `${pathText(e.path.slice(0, -1))}\n${n}`),
    ),
  );
  return unique.filter((e) => {
    const missing = e.unknownKey === undefined ? /^(\w+) is required$/.exec(e.message)?.[1] : undefined;
    return missing === undefined || !meant.has(`${pathText(e.path)}\n${missing}`);
  });
}
