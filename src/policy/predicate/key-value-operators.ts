/**
 * The attribute operators the engine can judge, each with its complement (what `not` turns it
 * into) and whether it pins a key to listed values. An operator not in this map is an unknown shape.
 * A target matches `{key, operator, values}` when its value of `key` satisfies the operator for
 * ANY listed value (NOT_ forms: for NONE of them).
 */
export interface KeyValueOperator {
  test(actual: string, values: readonly string[]): boolean;
  complement: string;
  /** Only these select targets by exact listed values (EQUALS, EQUALS_IGNORE_CASE). */
  pins: boolean;
}

type Compare = (actual: string, expected: string) => boolean;

const BASE: Record<string, Compare> = {
  EQUALS: (a, e) => a === e,
  CONTAINS: (a, e) => a.includes(e),
  STARTS_WITH: (a, e) => a.startsWith(e),
  ENDS_WITH: (a, e) => a.endsWith(e),
};

function build(): Map<string, KeyValueOperator> {
  const out = new Map<string, KeyValueOperator>();
  for (const [name, compare] of Object.entries(BASE)) {
    for (const ignoreCase of [false, true]) {
      const suffix = ignoreCase ? '_IGNORE_CASE' : '';
      const cmp: Compare = ignoreCase ? (a, e) => compare(a.toLowerCase(), e.toLowerCase()) : compare;
      const positive = `${name}${suffix}`;
      const negative = `NOT_${name}${suffix}`;
      out.set(positive, { test: (a, vs) => vs.some((v) => cmp(a, v)), complement: negative, pins: name === 'EQUALS' });
      out.set(negative, { test: (a, vs) => !vs.some((v) => cmp(a, v)), complement: positive, pins: false });
    }
  }
  return out;
}

export const KEY_VALUE_OPERATORS: ReadonlyMap<string, KeyValueOperator> = build();

/** Value-count operators of TargetAttributeKeyCountPredicateAO. */
export interface CountOperator {
  complement: string;
  /** Whether some target with at least one value of the key can satisfy `count <op> n`. */
  allowsValues(n: number): boolean;
}

export const COUNT_OPERATORS: ReadonlyMap<string, CountOperator> = new Map([
  ['EQUAL', { complement: 'NOT_EQUAL', allowsValues: (n: number) => n >= 1 }],
  ['NOT_EQUAL', { complement: 'EQUAL', allowsValues: () => true }],
  ['GREATER_THAN', { complement: 'LESS_THAN_OR_EQUAL', allowsValues: () => true }],
  ['GREATER_THAN_OR_EQUAL', { complement: 'LESS_THAN', allowsValues: () => true }],
  ['LESS_THAN', { complement: 'GREATER_THAN_OR_EQUAL', allowsValues: (n: number) => n > 1 }],
  ['LESS_THAN_OR_EQUAL', { complement: 'GREATER_THAN', allowsValues: (n: number) => n >= 1 }],
]);
