import fc from 'fast-check';
import { compileGlobs } from '../../src/policy/core/glob-matcher';
import { globProblem } from '../../src/syntax/glob-syntax';
import { ODD_CHARS, type RefNode, print, refGlob, referenceMatches, valuesFor } from '../helpers/glob-reference';
import { generatedSize } from '../helpers/test-lane';

/** A glob with the values to try it on (its samples, its own text, odd strings). */
const globAndValue = refGlob.chain((nodes) => fc.tuple(fc.constant(nodes), valuesFor(nodes)));
const runs = { numRuns: generatedSize(3000, 400) };

describe('the compiled glob matches what the glob means (test/helpers/glob-reference.ts)', () => {
  test('every printed glob loads, and matches a value exactly when the reference says it denotes it', () => {
    fc.assert(
      fc.property(globAndValue, ([nodes, value]) => {
        const pattern = print(nodes);
        expect(globProblem(pattern)).toBeUndefined();
        expect(compileGlobs([pattern])(value)).toBe(referenceMatches(nodes, value));
      }),
      runs,
    );
  });

  test('a glob matches its own text only when it denotes that text', () => {
    fc.assert(
      fc.property(refGlob, (nodes) => {
        const pattern = print(nodes);
        expect(compileGlobs([pattern])(pattern)).toBe(referenceMatches(nodes, pattern));
      }),
      runs,
    );
  });

  test('a list matches when one of its globs does, literal texts and globs alike', () => {
    fc.assert(
      fc.property(
        fc.array(refGlob, { minLength: 1, maxLength: 3 }),
        fc.string({ unit: 'grapheme', maxLength: 4 }),
        (globs, odd) => {
          const values = [odd, ...globs.map(print)];
          const list = compileGlobs(globs.map(print));
          for (const value of values) expect(list(value)).toBe(globs.some((g) => referenceMatches(g, value)));
        },
      ),
      { numRuns: generatedSize(1000, 150) },
    );
  });
});

/** Spellings the glob table gives the same meaning (docs/policies.md, "Globs and names"). */
const SAME = [
  ['{1..9}', '[1-9]'],
  ['{1..9}', '@(1|2|3|4|5|6|7|8|9)'],
  ['{1..9}', '{1,2,3,4,5,6,7,8,9}'],
  ['{9..1}', '[1-9]'],
  ['{1..9..2}', '[13579]'],
  ['{01..03}', '{01,02,03}'],
  ['{a..f}', '[a-f]'],
  ['{Z..a}', '[Z-a]'],
  ['{a,b}', '@(a|b)'],
  ['{a,{b,c}}', '@(a|b|c)'],
  ['*', '**'],
  ['?', '@(?)'],
  ['[[:digit:]]', '[0-9]'],
  ['[[:alpha:]]', '[a-zA-Z]'],
  ['[[:word:]]', '[a-zA-Z0-9_]'],
  ['?(ab)c', '{abc,c}'],
  ['+(ab)', 'ab*(ab)'],
  ['abc', '[a][b][c]'],
  ['ABC', 'abc'],
  ['\\*', '[*]'],
  ['\\[', '[\\[]'],
  ['\\{', '[{]'],
  ['\\|', '[|]'],
  ['\\\\', '[\\\\]'],
  ['/', '[/]'],
  ['.', '[.]'],
  ['😀', '[😀]'],
] as const;

describe('spellings the glob table calls equal decide alike, in any surroundings', () => {
  const sameInContext = fc.tuple(
    fc.constantFrom(...SAME),
    fc.option(refGlob, { nil: undefined }),
    fc.option(refGlob, { nil: undefined }),
  );
  test.each(SAME.map(([a, b]) => [a, b]))('%s and %s', (a, b) => {
    expect([globProblem(a), globProblem(b)]).toEqual([undefined, undefined]);
  });

  test('the same run of values matches both spellings or neither', () => {
    fc.assert(
      fc.property(
        sameInContext.chain(([pair, before, after]) => {
          const around = [...(before ?? []), { t: 'text', s: '~' } as RefNode, ...(after ?? [])];
          return fc.tuple(fc.constant(pair), fc.constant(before), fc.constant(after), valuesFor(around));
        }),
        fc.array(fc.constantFrom(...ODD_CHARS, '1', '5', '02', 'F', '_', 'ab', 'c'), { maxLength: 4 }),
        ([[a, b], before, after, value], middle) => {
          const [head, tail] = [before ? print(before) : '', after ? print(after) : ''];
          const left = compileGlobs([`${head}${a}${tail}`]);
          const right = compileGlobs([`${head}${b}${tail}`]);
          // Values with the surroundings' samples around, and the spellings' own texts in them.
          const tries = [value, value.replace('~', middle.join('')), value.replace('~', a), value.replace('~', b)];
          for (const v of tries) expect([v, left(v)]).toEqual([v, right(v)]);
        },
      ),
      runs,
    );
  });
});
