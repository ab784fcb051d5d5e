import fc from 'fast-check';
import { tokenRedactor } from '../../src/redaction/token-redactor';
import { generatedSize } from '../helpers/test-lane';

const R = '[redacted]';

/**
 * The oracle: the one global pattern the redactor replaced (the values, longest first, where
 * nothing of a token is before or after one). The redactor must answer exactly as it does.
 */
function byPattern(values: readonly string[], text: string): string {
  const kept = values.filter((v) => v !== '').sort((a, b) => b.length - a.length);
  if (kept.length === 0) return text;
  const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const pattern = new RegExp(
    `(?<![A-Za-z0-9_-]|[A-Za-z0-9_-]\\.)(?:${kept.map(escapeRegExp).join('|')})(?![A-Za-z0-9_-]|\\.[A-Za-z0-9_-])`,
    'g',
  );
  return text.replace(pattern, R);
}

/** Values the generated texts never hold (no "z" in their alphabet). */
const ABSENT = Array.from({ length: 70 }, (_, i) => `z${i}`);

describe('tokenRedactor', () => {
  it('replaces a value only where it is a token of its own', () => {
    const redact = tokenRedactor(new Set(['prod', 'web-1.prod']), R);
    expect(redact('namespace prod.')).toBe(`namespace ${R}.`);
    expect(redact('ns=prod')).toBe(`ns=${R}`);
    expect(redact('production no-prod-runs prod_x prod.a a.prod')).toBe('production no-prod-runs prod_x prod.a a.prod');
    expect(redact('host web-1.prod is down')).toBe(`host ${R} is down`);
    expect(redact('prod,prod prod')).toBe(`${R},${R} ${R}`);
  });

  it('the longest value wins where several fit at one place', () => {
    expect(tokenRedactor(new Set(['a', 'a/b']), R)('x a/b y')).toBe(`x ${R} y`);
    expect(tokenRedactor(new Set(['a', 'a/b']), R)('x a/c y')).toBe(`x ${R}/c y`);
  });

  it('answers a text with nothing to replace with the same string, and an empty value replaces nothing', () => {
    const text = 'nothing here';
    expect(tokenRedactor(new Set(['prod']), R)(text)).toBe(text);
    expect(tokenRedactor(new Set(), R)(text)).toBe(text);
    expect(tokenRedactor(new Set(['']), R)('a, b')).toBe('a, b');
  });

  it('answers as the one global pattern did, for any values and text (property)', () => {
    // Small alphabets, so that values, token characters, dots and separators meet often.
    const piece = fc.constantFrom('a', 'b', 'ab', '1', '-', '_', '.', '/', ':', ' ', '=', ',', 'é', '\u{1F600}');
    const value = fc.array(piece, { minLength: 1, maxLength: 4 }).map((p) => p.join(''));
    const values = fc.uniqueArray(value, { maxLength: 8 });
    const text = fc.array(fc.oneof(piece, value), { maxLength: 30 }).map((p) => p.join(''));
    fc.assert(
      fc.property(values, text, (vs, t) => {
        expect(tokenRedactor(new Set(vs), R)(t)).toBe(byPattern(vs, t));
        // Past 64 values the redactor scans instead of testing each value first: the same answers.
        const many = [...vs, ...ABSENT];
        expect(tokenRedactor(new Set(many), R)(t)).toBe(byPattern(many, t));
      }),
      { numRuns: generatedSize(1000, 200) },
    );
  });
});
