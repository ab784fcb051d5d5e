import { editorSchema } from '../../src/policy/compile/document-schema';
import { schemaCompletions, yamlCursor, type SchemaNode } from '../../src/playground/schema-completion';

const schema = editorSchema() as SchemaNode;
/** Completions at the `|` of a YAML text. */
const at = (marked: string) => {
  const offset = marked.indexOf('|');
  return schemaCompletions(schema, marked.replace('|', ''), offset).options.map((o) => o.label);
};

test('the cursor path follows indentation and sequence items', () => {
  const text = 'kind: Policy\nrules:\n  - timeWindow:\n      timeZone: UTC\n      ';
  expect(yamlCursor(text, text.length).path).toEqual(['rules', -1, 'timeWindow']);
});

test('top-level keys of a Policy, and the kinds before one is chosen', () => {
  expect(at('kind: Policy\n|')).toEqual(expect.arrayContaining(['name', 'mode', 'match', 'rules', 'modifications']));
  expect(at('kind: |')).toEqual(['Policy', 'Exception', 'EnvironmentAliases', 'ExceptionSettings']);
});

test('rule kinds inside rules, and the keys of one rule kind', () => {
  expect(at('kind: Policy\nrules:\n  - |')).toEqual(expect.arrayContaining(['environments', 'timeWindow', 'targets']));
  expect(at('kind: Policy\nrules:\n  - environments:\n      |')).toEqual(['blocked', 'allowed']);
});

test('values of an enum after its key', () => {
  expect(at('kind: Policy\nmode: |')).toEqual(['enforce', 'warn', 'audit']);
});
