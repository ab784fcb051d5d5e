import fc from 'fast-check';
import { compileGlobs } from '../../src/policy/core/glob-matcher';
import { automataVector, globCombinations } from '../../src/prove/star-glob-automaton';
import { globClasses } from '../../src/prove/value-classes';
import { generatedSize } from '../helpers/test-lane';

/**
 * Which combinations of star globs some text matches (star-glob-automaton.ts, record 0045): against
 * the real matcher on every text up to a length, over the globs' letters and one more. Every
 * combination a short text matches is listed, and every listed text matches as its combination says.
 */
const ALPHABET = ['a', 'b', '/', 'c'];
const vectorOf = (globs: readonly string[]) => {
  const matchers = globs.map((g) => compileGlobs([g]));
  return (text: string) => matchers.map((m) => (m(text) ? '1' : '0')).join('');
};
function textsUpTo(length: number): string[] {
  const out: string[] = [];
  let level = [''];
  for (let n = 1; n <= length; n++) {
    level = level.flatMap((t) => ALPHABET.map((c) => t + c));
    out.push(...level);
  }
  return out;
}
const SHORT = textsUpTo(6);

const glob = fc
  .array(fc.oneof(fc.constantFrom('*'), fc.constantFrom('a', 'b', '/', 'ab', 'ba', 'A', '/a', 'aab', 'aba')), {
    minLength: 1,
    maxLength: 5,
  })
  .map((parts) => parts.join(''));

describe('globCombinations: the combinations of star globs some text matches, exactly', () => {
  it('reads every text up to 6 letters as the matcher does, and lists every combination they match', () => {
    fc.assert(
      fc.property(fc.uniqueArray(glob, { minLength: 1, maxLength: 4 }), (globs) => {
        const vector = vectorOf(globs);
        const { texts, complete } = globCombinations(globs);
        expect(complete).toBe(true);
        for (const [v, text] of texts) expect(vector(text)).toBe(v);
        const read = automataVector(globs);
        // One expectation per property run (an expect per text is most of the test's time): the texts
        // the automata read otherwise than the matcher, and those whose combination is not listed.
        const misread: string[] = [];
        const unlisted: string[] = [];
        for (const text of SHORT) {
          const v = vector(text);
          if (read(text) !== v) misread.push(text);
          if (!texts.has(v)) unlisted.push(text);
        }
        expect({ misread, unlisted }).toEqual({ misread: [], unlisted: [] });
      }),
      { numRuns: generatedSize(400, 120) },
    );
  });

  it('finds no text for a combination no text matches: a url glob implied by another', () => {
    const { texts, complete } = globCombinations(['*/api/v*/silence*', '*/api/v2/silences']);
    expect(complete).toBe(true);
    // Every text matching the second matches the first: "01" is empty; the other three are not.
    expect([...texts.keys()].sort()).toEqual(['00', '10', '11']);
  });

  it('a combination only a long text matches is found (not cut at a length)', () => {
    const globs = ['*abcabcabc*', '*cba*'];
    const { texts } = globCombinations(globs);
    expect(vectorOf(globs)(texts.get('10') as string)).toBe('10');
    expect(vectorOf(globs)(texts.get('11') as string)).toBe('11');
  });
});

describe('globClasses: an empty combination of url globs is no unknown', () => {
  it('a parameter glob implied by another splits completely', () => {
    const c = globClasses(['*/api/v*/silence*', '*/api/v2/silences']);
    expect(c).toMatchObject({ complete: true });
    const vector = vectorOf(['*/api/v*/silence*', '*/api/v2/silences']);
    expect(c.values.map((v) => (v === undefined ? 'none' : vector(v))).sort()).toEqual(['00', '10', '11', 'none']);
  });

  it('a combination the prefix and suffix reasoning leaves open is found by the automaton', () => {
    // `*a*b*` but not `*ab*` nor `*b*a*`: "acb"; a text the shapes alone do not build.
    const globs = ['*a*b*', '*ab*', '*b*a*'];
    const c = globClasses(globs);
    expect(c.complete).toBe(true);
    expect(c.values.filter((v) => v !== undefined).map(vectorOf(globs))).toContain('100');
  });
});
