import fc from 'fast-check';
import { parseStrictJson } from '../../src/payload/parse-strict-json';
import { examplePayloadFiles, rawPayload } from '../helpers/fixtures';
import { generatedSize } from '../helpers/test-lane';

const parse = (text: string | Buffer) => parseStrictJson(Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8'));
const bytes = (...parts: Array<string | number[]>) =>
  Buffer.concat(parts.map((p) => (typeof p === 'string' ? Buffer.from(p, 'utf8') : Buffer.from(p))));

describe('parseStrictJson', () => {
  test.each(examplePayloadFiles())("accepts Steadybit's example %s as JSON.parse reads it", (file) => {
    expect(parse(rawPayload(file))).toEqual({ ok: true, value: JSON.parse(rawPayload(file).toString('utf8')) });
  });

  test.each<[string, string]>([
    ['escaped quotes in keys and values', '{"a\\"b":"c\\"d","e":["\\"\\""]}'],
    ['the same key in sibling objects', '{"a":{"k":1},"b":{"k":2},"c":[{"k":1},{"k":2}]}'],
    [
      'a quote written as \\u0022 (the cheap test cannot count it, the scan finds no repeat)',
      '{"a":"\\u0022","b":"x"}',
    ],
    ['a genuine U+FFFD', '{"a":"\uFFFD x \uFFFD"}'],
    ['a lone surrogate escape (valid JSON text, all UTF-8)', '{"a":"\\ud800"}'],
  ])('accepts %s', (_name, text) => {
    expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text) });
  });

  test.each<[string, string, string]>([
    [
      'two top-level event keys',
      '{"event":"experiment.execution.preflight","event":"killswitch.engaged"}',
      'the key event is given twice',
    ],
    [
      'two environment keys in execution',
      '{"execution":{"environment":"dev","x":1,"environment":"prod"}}',
      'the key execution.environment is given twice',
    ],
    [
      'two radius objects in a step',
      '{"execution":{"steps":[{},{"radius":{"percentage":1},"radius":{"percentage":100}}]}}',
      'the key execution.steps[1].radius is given twice',
    ],
    ['the same value twice', '{"a":{"b":[{"c":1,"c":1}]}}', 'the key a.b[0].c is given twice'],
    [
      'a key spelled once plainly, once with an escape',
      '{"team":{"teamKey":"A","team\\u004bey":"B"}}',
      'the key team.teamKey is given twice',
    ],
    [
      'a repeat hidden next to a \\u0022 that evens the quote count',
      '{"a":"\\u0022","b":1,"b":2}',
      'the key b is given twice',
    ],
    [
      'a repeat in a body whose strings hold quotes (each string counted with its \\" escapes)',
      '{"a\\"":"x\\"y","b":1,"b":2}',
      'the key b is given twice',
    ],
    [
      'a repeat in a body without \\" (each string counted as its two quotes)',
      '{"a":"x","b":{"c":[1,"d"]},"b":2}',
      'the key b is given twice',
    ],
    ['__proto__ twice', '{"x":{"__proto__":1,"__proto__":2}}', 'the key x.__proto__ is given twice'],
  ])('refuses %s, naming the path', (_name, text, message) => {
    expect(parse(text)).toEqual({ ok: false, problem: 'duplicate-key', message: expect.stringContaining(message) });
  });

  test.each<[string, Buffer, string]>([
    [
      'a 0xFF byte in a string',
      bytes('{"execution":{"name":"ab', [0xff], 'c"}}'),
      'byte 0xFF at offset 24, at execution.name',
    ],
    [
      'a truncated sequence after genuine U+FFFD',
      bytes('{"x":"\uFFFD","steps":[{"n":"a', [0xc3, 0x28], '"}]}'),
      'byte 0xC3 at offset 27, at steps[0].n',
    ],
    ['an overlong encoding of "/"', bytes('{"a":"', [0xc0, 0xaf], '"}'), 'byte 0xC0 at offset 6, at a'],
    ['an encoded surrogate', bytes('{"k":"', [0xed, 0xa0, 0x80], '"}'), 'byte 0xED at offset 6, at k'],
    ['a bad byte between tokens', bytes('{"a":1', [0x80], '}'), 'byte 0x80 at offset 6'],
  ])('refuses invalid UTF-8: %s', (_name, body, message) => {
    expect(parse(body)).toEqual({ ok: false, problem: 'utf8', message: expect.stringContaining(message) });
  });

  test.each([
    ['an unfinished object', '{"a":', 1, 6, 'a value was expected'],
    // V8 words this one by quoting the text, line breaks and all, with no position.
    ['a stray token on line 3', '{\n  "a": 1,\n  "b": x\n}', 3, 8, 'unexpected "x"'],
    ['a trailing comma', '{\n  "a": 1,\n}', 3, 1, 'a property name in double quotes was expected'],
    ['a comment', '// c\n{}', 1, 1, 'comments are not JSON'],
    [
      'a raw tab in a string',
      '{"a": "x\ty"}',
      1,
      7,
      'a control character (a tab or a line break) must be escaped inside a string',
    ],
    ['an empty body', '', 1, 1, 'a value was expected'],
  ])(
    'a syntax error (%s) is refused with its line, column and reason, on one line',
    (_name, text, line, col, reason) => {
      expect(parse(text)).toEqual({
        ok: false,
        problem: 'syntax',
        message: `is not valid JSON: ${reason} at line ${line}, column ${col}`,
        at: { line, col },
        reason,
      });
    },
  );

  test('property: whatever JSON.parse refuses, the message is one line', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const result = parseStrictJson(Buffer.from(text));
        if (!result.ok) expect(result.message).not.toMatch(/[\r\n]/);
      }),
    );
  });

  test('property: any JSON value, however its strings look, is accepted as JSON.parse reads it', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const text = JSON.stringify(value);
        expect(parse(text)).toEqual({ ok: true, value: JSON.parse(text) });
      }),
      { numRuns: generatedSize(300, 60) },
    );
  });

  test('property: repeating any key of any object is refused', () => {
    const objects = fc.dictionary(fc.string(), fc.jsonValue(), { minKeys: 1 });
    fc.assert(
      fc.property(objects, fc.jsonValue(), fc.nat(), (obj, other, pick) => {
        const keys = Object.keys(obj);
        const key = keys[pick % keys.length];
        // The object as text, then the chosen key once more with another value.
        const text = `{"outer":[${JSON.stringify(obj).slice(0, -1)},${JSON.stringify(key)}:${JSON.stringify(other)}}]}`;
        expect(parse(text)).toMatchObject({ ok: false, problem: 'duplicate-key' });
      }),
      { numRuns: generatedSize(300, 60) },
    );
  });
});

describe('parseStrictJson on a body nested as deep as the body limit allows', () => {
  const deep = (inner: string, depth = 100_000) => `${'{"v":['.repeat(depth)}${inner}${']}'.repeat(depth)}`;
  test.each<[string, string, object]>([
    ['accepted without a stack overflow', deep('{"k":"\\u0022"}'), { ok: true }],
    [
      'a key given twice at the bottom is found',
      deep('{"k":1,"k":2}', 20_000),
      {
        ok: false,
        message: expect.stringMatching(/^is ambiguous: the key v\[0\]\.v\[0\]\..*\.v\[0\]\.k is given twice/),
      },
    ],
  ])('%s', (_name, text, expected) => {
    expect(parse(text)).toMatchObject(expected);
  });

  test('a bad byte at the bottom is named by its path', () => {
    const text = deep('{"name":"ab\u0001"}', 20_000);
    const body = Buffer.from(text, 'utf8');
    body[body.indexOf(0x01)] = 0xff;
    expect(parse(body)).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^is not valid UTF-8: byte 0xFF at offset \d+, at v\[0\]\..*\.v\[0\]\.name;/),
    });
  });
});
