import fc from 'fast-check';
import jsonLogic from 'json-logic-js';
import { compileSimple } from '../../src/policy/json-logic/compile-simple';
import { decideAt, policyDocument } from '../helpers/decide-harness';
import { generatedSize } from '../helpers/test-lane';

type Expr = Parameters<typeof jsonLogic.apply>[0];

/** What json-logic-js answers, or the error it throws (compared by message). */
function outcome(run: () => unknown): { value?: unknown; error?: string } {
  try {
    return { value: run() };
  } catch (err) {
    return { error: (err as Error).message };
  }
}

const PATHS = ['a', 'b', 'a.x', 'a.x.y', 'n', 'list', 'list.0', 'missing', 'missing.deep', 's', 'z', 0, 1, ''];
const primitive = fc.oneof(
  fc.integer({ min: -3, max: 3 }),
  fc.double({ noNaN: false }),
  fc.constantFrom('', '0', '1', 'a', 'true', '10', ' '),
  fc.boolean(),
  fc.constant(null),
);
const varNode = fc.oneof(
  fc.constantFrom(...PATHS).map((p) => ({ var: p })),
  fc.constantFrom(...PATHS).map((p) => ({ var: [p] })),
  fc.tuple(fc.constantFrom(...PATHS), primitive).map(([p, d]) => ({ var: [p, d] })),
);
const OPS = ['==', '===', '!=', '!==', '>', '>=', '<', '<=', '!', '!!', 'and', 'or'];

/** Expressions of the shapes compileSimple handles, and a few it leaves to json-logic-js (`+`, `in`, arrays). */
const { expr } = fc.letrec<{ expr: unknown }>((tie) => ({
  expr: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    primitive,
    varNode,
    fc.tuple(fc.constantFrom(...OPS), fc.array(tie('expr'), { maxLength: 4 })).map(([op, args]) => ({ [op]: args })),
    fc.tuple(fc.constantFrom('!', '!!', 'and', '>'), tie('expr')).map(([op, arg]) => ({ [op]: arg })),
    // A data value first: empty lists are falsy to json-logic, not to JavaScript.
    fc.tuple(fc.constantFrom('and', 'or', '!', '!!'), varNode, tie('expr')).map(([op, v, arg]) => ({ [op]: [v, arg] })),
    fc
      .tuple(fc.constantFrom('+', 'in', 'cat'), fc.array(tie('expr'), { maxLength: 3 }))
      .map(([op, args]) => ({ [op]: args })),
    fc.array(tie('expr'), { maxLength: 2 }),
  ),
}));

/** Data like a condition's: null-prototype objects (so comparing an object can throw), nested, with arrays. */
const leaf = fc.oneof(primitive, fc.constant([]), fc.array(primitive, { maxLength: 3 }));
const nested = fc.record({ x: fc.oneof(leaf, fc.record({ y: leaf })) }, { requiredKeys: [] });
const data = fc
  .record(
    {
      a: fc.oneof(leaf, nested),
      b: leaf,
      n: fc.integer(),
      list: fc.oneof(fc.constant([]), fc.array(primitive, { maxLength: 3 })),
      s: fc.string({ maxLength: 3 }),
      0: leaf,
    },
    { requiredKeys: [] },
  )
  .map((d) => Object.assign(Object.create(null) as Record<string, unknown>, d));

describe('compileSimple: the same answer as json-logic-js for every expression it compiles', () => {
  test('random expressions over random data (values, including NaN, and errors alike)', () => {
    let compiled = 0;
    const runs = Number(process.env.PROPERTY_RUNS ?? generatedSize(3000, 300));
    fc.assert(
      fc.property(expr, fc.array(data, { minLength: 1, maxLength: 4 }), (e, inputs) => {
        const fast = compileSimple(e);
        if (!fast) return;
        compiled++;
        for (const d of inputs) expect(outcome(() => fast(d))).toEqual(outcome(() => jsonLogic.apply(e as Expr, d)));
      }),
      { numRuns: runs },
    );
    // The property is about compiled expressions: most generated ones must be (over 1,000 of 3,000).
    expect(compiled).toBeGreaterThan(runs / 3);
  });

  test('evaluates every value of ! and !!, as json-logic-js does: one that throws throws (found by the property)', () => {
    const e = { '!': [{ var: 'a' }, { '<=': [{ var: '' }] }] };
    const d = Object.create(null) as object;
    const fast = compileSimple(e);
    expect(fast).toBeDefined();
    expect(outcome(() => fast?.(d))).toEqual(outcome(() => jsonLogic.apply(e as Expr, d)));
    expect(outcome(() => fast?.(d)).error).toMatch(/primitive/);
  });

  test('edge cases a random generator rarely reaches: paths, defaults, loose comparisons, empty operations', () => {
    const datas: unknown[] = [
      {},
      { a: 1, b: '1', c: null, d: [0, 1], e: { f: 2 }, '': 3, 0: 'zero' },
      { a: '10', b: 9, c: [] },
      Object.assign(Object.create(null) as object, { a: 1, b: { c: [5, 6] } }),
      { x: { y: { z: 0 } }, s: 'abc', t: true, f: false, n: null, arr: [] },
    ];
    const cases: unknown[] = [
      { var: '' },
      { var: 'a.0' },
      { var: 'd.1' },
      { var: 0 },
      { var: 'b.c.1' },
      { var: ['zz', 5] },
      { var: ['zz', null] },
      { var: ['a', 'dflt'] },
      { var: 's.1' },
      { var: 's.length' },
      { var: ['x.y.z', 7] },
      { var: 'a..b' },
      { var: '.' },
      { var: ['n', 4] },
      { '<': [1, { var: 'a' }, 3] },
      { '<=': [1, { var: 'a' }, 1] },
      { '<': [{ var: 'a' }, '10'] },
      { '>': [{ var: 'a' }, { var: 'b' }] },
      { '==': [{ var: 'a' }, { var: 'b' }] },
      { '===': [{ var: 'a' }, { var: 'b' }] },
      { '!=': [null, { var: 'zz' }] },
      { '!==': [1] },
      { '==': [{ var: 'd' }, '0,1'] },
      { '==': [0, ''] },
      { '>=': [{ var: 'x.y.z' }, null] },
      { '<': [{ var: 'zz' }, 1] },
      { and: [] },
      { or: [] },
      { and: [1, 0, 2] },
      { or: [0, '', { var: 's' }] },
      { and: [{ var: 't' }, { var: 's' }] },
      { or: [{ var: 'f' }, { var: 'arr' }] },
      { and: [{ var: 'arr' }, 1] },
      { or: [{ var: 'arr' }, 0] },
      { '!': [] },
      { '!!': [] },
      { '!': { var: 'arr' } },
      { '!!': { var: 'c' } },
      { '!': ['0'] },
      { '!!': ['', 1] },
      { and: [{ '>': [{ var: 'a' }, 0] }, { or: [{ '!': { var: 'n' } }, { '==': [{ var: 's' }, 'abc'] }] }] },
    ];
    for (const e of cases) {
      const fast = compileSimple(e);
      expect([e, fast]).toEqual([e, expect.any(Function)]);
      for (const d of datas)
        expect([e, d, outcome(() => fast?.(d))]).toEqual([e, d, outcome(() => jsonLogic.apply(e as Expr, d))]);
    }
  });

  test('leaves to json-logic-js what it does not compile', () => {
    expect(compileSimple({ '+': [1, 2] })).toBeUndefined();
    expect(compileSimple({ '>': [{ '+': [{ var: 'a' }, 1] }, 2] })).toBeUndefined();
    expect(compileSimple({ var: [] })).toBeUndefined();
    expect(compileSimple({ var: ['a', { var: 'b' }] })).toBeUndefined();
    expect(compileSimple({ '==': [1, 2, 3, 4] })).toBeUndefined();
    expect(compileSimple([1, 2])).toBeUndefined();
    expect(compileSimple({ toString: [] })).toBeUndefined();
  });

  test('a condition rule answers the same through either path', () => {
    const NOW = '2026-01-05T10:00:00Z';
    const decide = (deny: string) =>
      decideAt({ 'p.yaml': policyDocument(`condition: {deny: ${deny}, reason: r}`) }, NOW);
    expect(compileSimple({ '>': [{ var: 'targets.total' }, 0] })).toBeDefined();
    expect(compileSimple({ '>': [{ '+': [{ var: 'targets.total' }, 0] }, 0] })).toBeUndefined();
    // The fixture expects one target: caps below and at it; `+ 0` keeps json-logic-js evaluating the whole expression.
    for (const cap of [0, 1, 5]) {
      const simple = decide(`{">": [{var: targets.total}, ${cap}]}`);
      const interpreted = decide(`{">": [{"+": [{var: targets.total}, 0]}, ${cap}]}`);
      expect(simple.allowed).toBe(cap >= 1);
      // The policy files differ, so do their revisions: compare the rest of the answer.
      const answer = (d: typeof simple) => ({
        allowed: d.allowed,
        message: d.message.replace(/policy revision \w+/, ''),
      });
      expect(answer(simple)).toEqual(answer(interpreted));
    }
  });
});
