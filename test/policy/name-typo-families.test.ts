import { loadProblems } from '../helpers/decide-harness';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}`;
const RULE = 'rules:\n  - environments: {blocked: [production]}\n';

/** The starter policies as a user copies them, with one file changed. */
function starterSet(change: (file: string, text: string) => string = (_f, t) => t): Record<string, string> {
  const dir = join(__dirname, '../../policies');
  const files: Record<string, string> = {};
  // Suites and properties are not policy files (the loader skips them).
  for (const f of readdirSync(dir).filter(
    (f) => /\.ya?ml$/.test(f) && !f.endsWith('.test.yaml') && !f.endsWith('.property.yaml'),
  ))
    files[f] = change(f, readFileSync(join(dir, f), 'utf8'));
  return files;
}

test('a team one letter from a team another policy names is warned, with the team meant', () => {
  const warnings = loadProblems({
    'a.yaml': policy('a', `match: {teams: [payments-team]}\n${RULE}`),
    'b.yaml': policy('b', `match: {teams: [paymnts-team], environments: [production]}\n${RULE}`),
    'c.yaml': policy('c', `exclude: {createdByTeams: [payments-team]}\n${RULE}`),
  });
  expect(warnings).toEqual([
    'b.yaml:3:17 warning: match.teams[0]: team "paymnts-team" is one letter away from "payments-team", which the set names elsewhere: did you mean "payments-team"? (a misspelt team matches no run)',
  ]);
});

test('two teams one letter apart, each written once, are both named, neither told to become the other', () => {
  const warnings = loadProblems({
    'a.yaml': policy('a', `match: {teams: [payments-team]}\n${RULE}`),
    'b.yaml': policy('b', `match: {teams: [paymnts-team]}\n${RULE}`),
  });
  expect(warnings).toEqual([
    'a.yaml:3:17 warning: match.teams[0]: team "payments-team" and "paymnts-team" differ by one letter and the set writes each once: one of them is likely misspelt, use one spelling (a misspelt team matches no run)',
    'b.yaml:3:17 warning: match.teams[0]: team "paymnts-team" and "payments-team" differ by one letter and the set writes each once: one of them is likely misspelt, use one spelling (a misspelt team matches no run)',
  ]);
});

test('an exception scoped to a misspelt team is warned', () => {
  const warnings = loadProblems({
    'a.yaml': policy('a', `match: {teams: [payments-team, checkout-team]}\n${RULE}`),
    'b.yaml': policy('b', `match: {teams: [checkout-team]}\n${RULE}`),
    'x.yaml':
      'kind: Exception\nname: x\npolicy: a\nreason: r\nowner: o@example.com\nexpires: "2099-01-01T00:00:00Z"\nmatch: {teams: [checkout-tem]}\n',
  });
  expect(warnings.filter((w) => w.includes('checkout-tem'))).toEqual([
    'x.yaml:7:17 warning: match.teams[0]: team "checkout-tem" is one letter away from "checkout-team", which the set names elsewhere: did you mean "checkout-team"? (a misspelt team matches no run)',
  ]);
});

test('the starter policies load without a typo warning, and a misspelt extension in a glob is warned', () => {
  expect(loadProblems(starterSet())).toEqual([]);
  const warnings = loadProblems(
    starterSet((f, t) =>
      f === 'kubernetes-namespace-guard.yaml' ? t.replaceAll('extension_kubernetes', 'extension_kubernets') : t,
    ),
  );
  expect(warnings).toEqual([
    'kubernetes-namespace-guard.yaml:9:15 warning: match.actionIds[0]: the extension "com.steadybit.extension_kubernets" of action id "com.steadybit.extension_kubernets.*" is one letter away from "com.steadybit.extension_kubernetes", an extension of Steadybit: did you mean "com.steadybit.extension_kubernetes.*"? (a misspelt action id matches no step)',
  ]);
});

test('an action id one letter from one the set writes more often is warned, in actions rules too', () => {
  const id = 'com.steadybit.extension_container.stress_cpu';
  const warnings = loadProblems({
    'a.yaml': policy('a', `match: {actionIds: [${id}]}\n${RULE}`),
    'b.yaml': policy('b', `match: {actionIds: [${id}]}\n${RULE}`),
    'c.yaml': policy('c', 'rules:\n  - actions: {blocked: [com.steadybit.extension_container.stres_cpu]}\n'),
  });
  expect(warnings).toEqual([
    `c.yaml:4:25 warning: rules[0].actions.blocked[0]: action id "com.steadybit.extension_container.stres_cpu" is one letter away from "${id}", which the set names elsewhere: did you mean "${id}"? (a misspelt action id matches no step)`,
  ]);
});

test.each([
  [
    'globs of the action part',
    ['com.steadybit.extension_container.stress_*', 'com.steadybit.extension_container.stres*'],
  ],
  ['globs without an extension part', ['*shutdown*', '*shutdow*', 'com.steadybit.*']],
  ['extensions of your own far from Steadybit ones', ['com.example.extension_billing.drain', 'com.example.ext.x']],
  ['every extension Steadybit ships', ['com.steadybit.extension_host.*', 'com.steadybit.extension_http.check']],
])('says nothing about %s', (_what, ids) => {
  expect(loadProblems({ 'p.yaml': policy('p', `match: {actionIds: ${JSON.stringify(ids)}}\n${RULE}`) })).toEqual([]);
});

test.each([
  [
    'a common name',
    ['staging', 'stagin'],
    [
      'p.yaml:3:33 warning: match.environments[1]: environment "stagin" is one letter away from "staging", which the set names elsewhere: did you mean "staging"? (a misspelt environment matches no run)',
    ],
  ],
  [
    'neither: both named, neither told to become the other',
    ['eu-central', 'eu-centrl'],
    [
      'p.yaml:3:24 warning: match.environments[0]: environment "eu-central" and "eu-centrl" differ by one letter and the set writes each once: one of them is likely misspelt, use one spelling (a misspelt environment matches no run)',
      'p.yaml:3:36 warning: match.environments[1]: environment "eu-centrl" and "eu-central" differ by one letter and the set writes each once: one of them is likely misspelt, use one spelling (a misspelt environment matches no run)',
    ],
  ],
])('two environments written once each, one letter apart, %s', (_what, envs, warnings) => {
  expect(loadProblems({ 'p.yaml': policy('p', `match: {environments: [${envs.join(', ')}]}\n${RULE}`) })).toEqual(
    warnings,
  );
});

test('a targets.perType glob with a misspelt extension is warned: its caps would never apply', () => {
  const warnings = loadProblems({
    'p.yaml': policy(
      'p',
      'rules:\n  - targets:\n      perType:\n        "com.steadybit.extension_containr.*": {maxPerStep: 3}\n',
    ),
  });
  expect(warnings).toEqual([
    'p.yaml:6:47 warning: rules[0].targets.perType.com.steadybit.extension_containr.*: the extension "com.steadybit.extension_containr" of target type "com.steadybit.extension_containr.*" is one letter away from "com.steadybit.extension_container", an extension of Steadybit: did you mean "com.steadybit.extension_container.*"? (a misspelt target type matches no step)',
  ]);
});
