import { loadProblems } from '../helpers/decide-harness';

const HEAD = 'kind: Policy\nname: p\n';

test.each([
  [
    'a key meant to be nested under an empty one',
    `${HEAD}rules:\n  - environments:\n    blocked: [production]\n`,
    'p.yaml:4:5 rules[0]: must NOT have more than 1 properties (hint: "environments" has no value and "blocked" follows it at the same indentation: to put it inside "environments", indent it two spaces more than "environments")',
  ],
  [
    'two keys meant to be nested',
    `${HEAD}match:\n  environments:\n  teams: [ADM]\n  experimentKeys: [SHOP-*]\nrules:\n  - environments: {blocked: [production]}\n`,
    'p.yaml:4:16 match.environments: must be array (hint: "environments" has no value and "teams", "experimentKeys" follow it at the same indentation: to put them inside "environments", indent them two spaces more than "environments")',
  ],
  [
    'a list item out of line',
    `${HEAD}rules:\n  - environments:\n      blocked: [x]\n   - targets:\n      maxTargets: 3\n`,
    'p.yaml:6:4 YAML syntax error: All sequence items must start at the same column (hint: YAML nests by indentation: start this line in the same column as the items it belongs with: each `- ` of a list under the one before, each key of a mapping under its siblings)',
  ],
  [
    'a tab',
    `${HEAD}rules:\n\t- environments: {blocked: [x]}\n`,
    'p.yaml:4:1 YAML syntax error: Tabs are not allowed as indentation (hint: indent with spaces: YAML does not allow tabs for indentation)',
  ],
])("%s gets a hint, not only the parser's text", (_what, text, first) => {
  expect(loadProblems({ 'p.yaml': text })[0]).toBe(first);
});

test('a hint is given once per empty key, and never to a valid document', () => {
  const problems = loadProblems({ 'p.yaml': `${HEAD}rules:\n  - environments:\n    blocked: [production]\n` });
  expect(problems.filter((p) => p.includes('hint:'))).toHaveLength(1);
  expect(loadProblems({ 'p.yaml': `${HEAD}rules:\n  - environments:\n      blocked: [production]\n` })).toEqual([]);
});

test("a brace left open is told at the file's end, and the parser's errors after the first are counted, not listed", () => {
  const open = loadProblems({ 'p.yaml': `${HEAD}rules:\n  - environments: {blocked: [prod]\n` });
  expect(open).toEqual([
    'p.yaml:4:34 YAML syntax error at the end of the file: Flow map in block collection must be sufficiently indented and end with a } (hint: the file ends before a {, [ or quote opened earlier is closed)',
  ]);
  const stray = loadProblems({
    'p.yaml': `${HEAD}rules:\n  - environments: {blocked: [prod]} {\n  - targets: {maxPerStep: 3}\n  - actions: {blocked: [x]}\n`,
  });
  expect(stray).toHaveLength(1);
  expect(stray[0]).toMatch(
    /^p\.yaml:4:\d+ YAML syntax error: .*; \d+ more syntax errors? after it, which most often follow from this one$/,
  );
});
