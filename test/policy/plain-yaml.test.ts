import fc from 'fast-check';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { parsePlainYaml } from '../../src/policy/compile/plain-yaml';
import { parseWithPositions, parseYamlSource, type SourceFile } from '../../src/policy/compile/yaml-source';
import { generatedSize } from '../helpers/test-lane';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';

const ROOT = join(__dirname, '..', '..');

/** The repository's YAML files (policies, examples, fixtures, the chart), not what is installed or built. */
function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name.startsWith('.') || ['node_modules', 'dist', 'coverage'].includes(e.name)) return [];
    const full = join(dir, e.name);
    if (e.isDirectory()) return yamlFiles(full);
    return e.isFile() && /\.ya?ml$/.test(e.name) ? [relative(ROOT, full)] : [];
  });
}

/** Equal as `yaml` would give them: the same keys in the same order, numbers by Object.is (-0, NaN). */
function same(a: unknown, b: unknown): boolean {
  if (typeof a === 'number' && typeof b === 'number') return Object.is(a, b);
  if (Array.isArray(a)) return Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (typeof a === 'object' && a !== null) {
    if (typeof b !== 'object' || b === null || Array.isArray(b)) return false;
    const [ka, kb] = [Object.keys(a), Object.keys(b)];
    const [ra, rb] = [a as Record<string, unknown>, b as Record<string, unknown>];
    return ka.length === kb.length && ka.every((k, i) => k === kb[i] && same(ra[k], rb[k]));
  }
  return a === b;
}

/** Every path into a value: what `locate` may be asked for. */
function pathsOf(value: unknown, path: Array<string | number> = []): Array<Array<string | number>> {
  const inner =
    typeof value === 'object' && value !== null
      ? Object.entries(value).flatMap(([k, v]) => pathsOf(v, [...path, Array.isArray(value) ? Number(k) : k]))
      : [];
  return [path, ...inner];
}

/**
 * What the plain reader gives where it reads a text: the values `yaml` gives, no syntax problem
 * `yaml` would have reported, and every field located where `yaml` locates it.
 */
function expectAsYaml(source: SourceFile, everyPath = true): 'plain' | 'yaml' {
  if (parsePlainYaml(source.text) === undefined) return 'yaml';
  const slow = parseWithPositions(source);
  expect(slow.problems).toEqual([]);
  const fast = parseYamlSource(source);
  expect(fast.documents.length).toBe(slow.documents.length);
  fast.documents.forEach((doc, i) => {
    const want = slow.documents[i];
    if (!same(doc.value, want.value)) expect(doc.value).toEqual(want.value);
    expect(same(doc.value, want.value)).toBe(true);
    for (const path of everyPath ? pathsOf(want.value) : [[]])
      for (const at of ['value', 'key'] as const)
        expect({ path, at, ...doc.locate(path, at) }).toEqual({ path, at, ...want.locate(path, at) });
  });
  return 'plain';
}

describe('the plain YAML reader reads what yaml reads, or leaves the text to yaml', () => {
  test('every YAML file of the repository', () => {
    const files = yamlFiles(ROOT);
    expect(files).toContain(join('policies', 'production-guardrails.yaml'));
    const read = files.map((file) => expectAsYaml({ file, text: readFileSync(join(ROOT, file), 'utf8') }));
    // Most policy files are in the plain shape: the reader is not a path no file takes.
    expect(read.filter((r) => r === 'plain').length).toBeGreaterThan(20);
  });

  test('a generated policy set, every file in the plain shape', () => {
    const files = generatePolicySet(generatedSize(1000, 200), usableRuleKinds().usable);
    expect(files.map((f) => expectAsYaml(f, false))).toEqual(files.map(() => 'plain'));
  });

  test.each([
    [
      'scalars of the core schema',
      'a: 1\nb: -2.5\nc: .5\nd: 1e3\ne: true\nf: False\ng: null\nh: ~\ni: -0\nj: 007\nk: +3\n',
    ],
    ['strings that start like numbers', 'a: 30m\nb: 09:00\nc: 2026-12-31\nd: 1.2.3\ne: 5 apples\n'],
    ['quoted scalars', `a: "x: y"\nb: 'it''s'\nc: ""\nd: 'a#b' # c\n"quoted key": 1\n'>': 2\n`],
    ['comments', '# head\na: 1 # after\n  # indented\nb: x#y\n'],
    [
      'nested blocks',
      'a:\n  b:\n    - c: 1\n      d: [x, y]\n    -   e: 2\n    - - 1\n      - 2\n    -\n      f: 3\n    -\nz: []\n',
    ],
    ['a sequence at its key', 'rules:\n- a\n- b: 1\n  c: 2\nname: x\n'],
    ['documents', '---\na: 1\n---\n---\nb: 2\n---\n'],
    ['empty values', 'a:\nb:\n  c:\n'],
  ])('read plainly: %s', (_name, text) => {
    expect(expectAsYaml({ file: 'case.yaml', text })).toBe('plain');
  });

  test.each([
    ['a block scalar', 'a: |\n  text\n'],
    ['an anchor and alias', 'a: &x 1\nb: *x\n'],
    ['a tag', 'a: !!str 1\n'],
    ['a flow mapping', 'a: { b: 1 }\n'],
    ['escapes', 'a: "\\u0041"\n'],
    ['a tab', 'a:\t1\n'],
    ['CRLF', 'a: 1\r\nb: 2\r\n'],
    ['a duplicate key', 'a: 1\na: 2\n'],
    ['special floats', 'a: .inf\nb: -.Inf\nc: .nan\n'],
    ['octal and hex', 'a: 0o17\nb: 0x1F\n'],
    ['a long integer', 'a: 123456789012345678901\n'],
    ['a multi-line plain scalar', 'a: one\n  two\n'],
    ['a mis-indented key', 'a:\n    b: 1\n  c: 2\n'],
    ['__proto__', '__proto__: 1\n'],
    ['a null key', 'null: 1\n'],
    ['an indented document', '  a: 1\n'],
    ['a directive', '%YAML 1.2\n---\na: 1\n'],
    ['a document end marker', 'a: 1\n...\n'],
    ['a key with a space before its colon', 'a : 1\n'],
    ['a trailing comma in a flow sequence', 'a: [x, ]\n'],
    ['a nested flow sequence', 'a: [x, [y]]\n'],
    ['a pair in a flow sequence', 'a: [x: 1]\n'],
    ['a comment sign inside quotes', 'a: "x # y"\n'],
    ['a quote before a comment', `a: it's # x\n`],
    ['a plain scalar with an indicator', 'a: -x\nb: ?x\n'],
    ['a BOM', '\uFEFFa: 1\n'],
    ['only a scalar', 'hello\n'],
    ['a key with no space after the colon', 'a:b: 1\n'],
  ])('left to yaml: %s', (_name, text) => {
    expect(expectAsYaml({ file: 'case.yaml', text })).toBe('yaml');
  });
});

// Generated texts in and around the plain shape: keys, scalars written as a policy author would
// write them (unquoted, so the reader must type them as yaml does), quoted, in flow sequences,
// nested, with comments. Whatever the reader accepts must be what yaml gives.
const TOKENS = [
  ...['1', '-2.5', '.5', '1e3', '1E-3', '+3', '-0', '007', '0o17', '0x1F', '1_000', '12:30', '2026-12-31', '1.2.3'],
  ...['true', 'True', 'TRUE', 'tRue', 'false', 'yes', 'no', 'on', 'off', 'null', 'Null', 'NULL', '~', 'nil'],
  ...['.inf', '-.Inf', '.NaN', '30m', 'x', 'a b', 'a#b', 'a #b', 'a: b', '-x', '?x', '@x', '`x', '%x', '!x'],
  ...['&x', '*x', '|', '>', "it's", '"q"', "'q'", "''", '""', '[x]', '{x}', ',', 'x,', 'é', '😀', '\\n', ' x'],
];
const key = fc.constantFrom('a', 'name', 'kind', 'rules', 'b c', 'x-y', 'on', 'true', '1', "'k'", '"k"');
const scalar = fc.oneof(
  fc.constantFrom(...TOKENS),
  fc.constantFrom(...TOKENS).map((t) => `'${t.replace(/'/g, "''")}'`),
  fc.constantFrom(...TOKENS).map((t) => JSON.stringify(t)),
);
const flow = fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`);
const comment = fc.constantFrom('', '', ' # c', ' #', '#x');
type Node = { kind: 'map'; entries: [string, Node | string][] } | { kind: 'seq'; items: (Node | string)[] };
const node: fc.Arbitrary<Node> = fc.letrec<{ node: Node; leaf: string }>((tie) => ({
  leaf: fc.oneof(scalar, flow, fc.constant('')),
  node: fc.oneof(
    { depthSize: 'small' },
    fc.record({
      kind: fc.constant('map' as const),
      entries: fc.array(fc.tuple(key, fc.oneof(tie('leaf'), tie('node'))), { minLength: 1, maxLength: 3 }),
    }),
    fc.record({
      kind: fc.constant('seq' as const),
      items: fc.array(fc.oneof(tie('leaf'), tie('node')), { minLength: 1, maxLength: 3 }),
    }),
  ),
})).node;

function emit(n: Node, indent: string, c: () => string): string {
  if (n.kind === 'map')
    return n.entries
      .map(([k, v]) =>
        typeof v === 'string'
          ? `${indent}${k}:${v === '' ? '' : ` ${v}`}${c()}\n`
          : `${indent}${k}:${c()}\n${emit(v, `${indent}  `, c)}`,
      )
      .join('');
  return n.items
    .map((v) =>
      typeof v === 'string'
        ? `${indent}-${v === '' ? '' : ` ${v}`}${c()}\n`
        : `${indent}-${c()}\n${emit(v, `${indent}  `, c)}`,
    )
    .join('');
}

test('generated texts: what the plain reader reads, it reads as yaml does', () => {
  let plain = 0;
  fc.assert(
    fc.property(node, fc.array(comment, { minLength: 32, maxLength: 32 }), (tree, comments) => {
      let i = 0;
      const text = emit(tree, '', () => comments[i++ % comments.length]);
      if (expectAsYaml({ file: 'generated.yaml', text }) === 'plain') plain++;
    }),
    { numRuns: generatedSize(2000, 300) },
  );
  // The generator reaches the plain path, not only the texts left to yaml.
  expect(plain).toBeGreaterThan(generatedSize(2000, 300) / 10);
});
