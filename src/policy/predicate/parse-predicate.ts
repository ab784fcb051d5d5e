import { COUNT_OPERATORS, KEY_VALUE_OPERATORS } from './key-value-operators';
import type { Leaf, Predicate } from './predicate';
import { isJsonObject, type JsonObject } from '../../common/json-object';

/** Deeper trees are not judged (a payload could nest without end). */
export const MAX_DEPTH = 32;

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;
const isTextList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');

const unknown = (shape: string): Leaf => ({ kind: 'unknown', shape });

/** The property that says which shape an object is; an object must show exactly one. */
const SHAPES: ReadonlyArray<[string, (o: JsonObject) => boolean]> = [
  ['group', (o) => 'predicates' in o],
  ['not', (o) => 'not' in o],
  ['query', (o) => 'query' in o],
  ['agentId', (o) => 'agentId' in o],
  ['presence', (o) => 'presenceOperator' in o],
  ['count', (o) => 'valueCountOperator' in o],
  ['key', (o) => 'key' in o && !('presenceOperator' in o) && !('valueCountOperator' in o)],
  ['name', (o) => 'name' in o],
  ['types', (o) => 'types' in o],
];

function keyLeaf(o: JsonObject): Leaf {
  const op = typeof o.operator === 'string' ? o.operator.toUpperCase() : undefined;
  if (!isText(o.key) || op === undefined)
    return unknown(`key predicate without a key and an operator (${JSON.stringify(o)})`);
  if (o.values === undefined) return unknown(`key predicate "${o.key} ${op}" without values`);
  if (!isTextList(o.values) || o.values.length === 0)
    return unknown(`key predicate "${o.key} ${op}" with no string values`);
  if (!KEY_VALUE_OPERATORS.has(op))
    return unknown(`operator ${op} on ${o.key} (known: ${[...KEY_VALUE_OPERATORS.keys()].join(', ')})`);
  return { kind: 'keyValue', key: o.key, operator: op, values: o.values };
}

function presenceLeaf(o: JsonObject): Leaf {
  const op = o.presenceOperator;
  if (!isText(o.key) || (op !== 'PRESENT' && op !== 'NOT_PRESENT'))
    return unknown(`presence predicate ${JSON.stringify(o)}`);
  return { kind: 'presence', key: o.key, operator: op };
}

function countLeaf(o: JsonObject): Leaf {
  const op = o.valueCountOperator;
  const count =
    typeof o.value === 'string' && /^\d+$/.test(o.value.trim())
      ? Number(o.value)
      : typeof o.value === 'number'
        ? o.value
        : NaN;
  if (!isText(o.key) || typeof op !== 'string' || !COUNT_OPERATORS.has(op) || !Number.isInteger(count)) {
    return unknown(`value-count predicate ${JSON.stringify(o)}`);
  }
  return { kind: 'count', key: o.key, operator: op, count };
}

function parseObject(o: JsonObject, depth: number): Predicate {
  const shapes = SHAPES.filter(([, is]) => is(o)).map(([name]) => name);
  if (shapes.length !== 1) {
    return unknown(
      shapes.length === 0
        ? `object with fields ${Object.keys(o).join(', ') || '(none)'}`
        : `object mixing ${shapes.join(' and ')}`,
    );
  }
  switch (shapes[0]) {
    case 'group': {
      const op = typeof o.operator === 'string' ? o.operator.toUpperCase() : undefined;
      if ((op !== 'AND' && op !== 'OR') || !Array.isArray(o.predicates))
        return unknown(`group with operator ${JSON.stringify(o.operator)}`);
      return { kind: 'group', operator: op, predicates: o.predicates.map((p) => parsePredicate(p, depth + 1)) };
    }
    case 'not':
      return { kind: 'not', predicate: parsePredicate(o.not, depth + 1) };
    case 'query':
      return typeof o.query === 'string' ? { kind: 'query', query: o.query } : unknown('query that is not a string');
    case 'agentId':
      return isText(o.agentId) ? { kind: 'agent', agentId: o.agentId } : unknown('agentId that is not a string');
    case 'presence':
      return presenceLeaf(o);
    case 'count':
      return countLeaf(o);
    case 'key':
      return keyLeaf(o);
    case 'name':
      return typeof o.name === 'string' ? { kind: 'name', name: o.name } : unknown('name that is not a string');
    default:
      return isTextList(o.types) ? { kind: 'types', types: o.types } : unknown('types that are not a list of strings');
  }
}

/** Reads a payload's predicate. Never throws: what it cannot read becomes an `unknown` leaf. */
export function parsePredicate(raw: unknown, depth = 0): Predicate {
  if (depth > MAX_DEPTH) return unknown(`predicate nested deeper than ${MAX_DEPTH} levels`);
  if (Array.isArray(raw)) return unknown('a list where a predicate object was expected');
  if (!isJsonObject(raw)) return unknown(`${raw === null ? 'null' : typeof raw} where a predicate object was expected`);
  return parseObject(raw, depth);
}
