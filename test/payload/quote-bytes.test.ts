import fc from 'fast-check';
import { quoteBytes } from '../../src/payload/quote-bytes';

/** The plain count quoteBytes must equal. */
const counted = (bytes: Uint8Array) => bytes.filter((b) => b === 0x22).length;

describe('quoteBytes', () => {
  test.each([
    ['no bytes', ''],
    ['one quote', '"'],
    ['a word of quotes', '""""'],
    ['quotes before, inside and after whole words', '"ab"cdefgh"ijk""'],
    ['bytes next to 0x22 in value', '!#"\u00a2\u0122'],
    ['a JSON object', '{"key":"k8s.namespace","value":"shop"}'],
  ])('counts the " of %s', (_name, text) => {
    const bytes = Buffer.from(text, 'utf8');
    expect(quoteBytes(bytes)).toBe(counted(bytes));
  });

  test('counts a view that starts and ends off a 4-byte boundary, and only the bytes of the view', () => {
    const whole = Buffer.from('""x"yz"""w"""""q"', 'latin1');
    for (let start = 0; start < 5; start++)
      for (let end = whole.length - 4; end <= whole.length; end++) {
        const view = whole.subarray(start, end);
        expect([start, end, quoteBytes(view)]).toEqual([start, end, counted(view)]);
      }
  });

  test('property: any bytes at any offset, the same count as byte by byte', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.nat(7), (data, offset) => {
        const backing = new Uint8Array(data.length + offset);
        backing.set(data, offset);
        const view = backing.subarray(offset);
        expect(quoteBytes(view)).toBe(counted(view));
      }),
    );
  });

  test('property: biased to 0x22 and its neighbours (the bytes a carry could confuse)', () => {
    const near = fc.constantFrom(0x21, 0x22, 0x23, 0xa2, 0x02, 0x20, 0x00, 0xff, 0x7f, 0x80);
    fc.assert(
      fc.property(fc.array(near, { maxLength: 64 }), fc.nat(3), (data, offset) => {
        const backing = new Uint8Array(data.length + offset);
        backing.set(data, offset);
        const view = backing.subarray(offset);
        expect(quoteBytes(view)).toBe(counted(view));
      }),
    );
  });
});
