import { editDistance, looksLikeTypo } from '../../src/policy/compile/near-name';
import { loadProblems } from '../helpers/decide-harness';
import { runCli } from '../cli/run-cli';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

test.each([
  ['production', 'prodution', 1],
  ['production', 'prodcution', 1],
  ['k8s.namespace', 'k8s.namspace', 1],
  ['staging', 'staging', 0],
  ['abc', 'xyz', 3],
  ['', 'ab', 2],
  ['eu-west', 'eu-east', 2],
])('editDistance(%s, %s) = %i (a swap of neighbours is one edit)', (a, b, d) => {
  expect(editDistance(a, b)).toBe(d);
  expect(editDistance(b, a)).toBe(d);
});

test.each([
  ['prodution', 'production', true],
  ['Prodution', 'production', true],
  ['k8s.namspace', 'k8s.namespace', true],
  ['k8s.namespace', 'k8s.namespace', false], // the same name
  ['PRODUCTION', 'production', false], // environments compare ignoring case
  ['staging-1', 'staging-2', false], // a family numbered on purpose
  ['eu-west-1', 'eu-west-2', false],
  ['zone-a', 'zone-b', false], // one whole short token
  ['prd', 'prod', false], // too short to tell
  ['us-east-1', 'us-west-1', false], // two edits
  ['dev', 'qa', false],
])('looksLikeTypo(%s, %s) is %s', (a, b, typo) => {
  expect(looksLikeTypo(a, b)).toBe(typo);
  expect(looksLikeTypo(b, a)).toBe(typo);
});

const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}`;
const ALIASES = 'kind: EnvironmentAliases\naliases:\n  production: [2f9a1c52-0d3a-4c3e-9a57-6f1b8c2f7d10]\n';

test.each([
  [
    'an environment one letter from an alias',
    { 'aliases.yaml': ALIASES, 'p.yaml': policy('p', 'rules:\n  - environments: {blocked: [prodution]}\n') },
    [
      'p.yaml:4:30 warning: rules[0].environments.blocked[0]: environment "prodution" is one letter away from "production", which an alias defines: did you mean "production"? (a misspelt environment matches no run)',
    ],
  ],
  [
    'an environment one letter from one written more often',
    {
      'a.yaml': policy('a', 'match: {environments: [production]}\nrules:\n  - environments: {blocked: [production]}\n'),
      'b.yaml': policy('b', 'match: {environments: [prodution]}\nrules:\n  - environments: {blocked: [staging]}\n'),
    },
    [
      'b.yaml:3:24 warning: match.environments[0]: environment "prodution" is one letter away from "production", which the set names elsewhere: did you mean "production"? (a misspelt environment matches no run)',
    ],
  ],
  [
    'a requireKeys key one letter from a key Steadybit sends',
    { 'p.yaml': policy('p', 'rules:\n  - blastRadius: {requireKeys: [k8s.namspace]}\n') },
    [
      'p.yaml:4:33 warning: rules[0].blastRadius.requireKeys[0]: attribute key "k8s.namspace" is one letter away from "k8s.namespace", a key Steadybit sends: did you mean "k8s.namespace"? (a misspelt key never matches what Steadybit sends)',
    ],
  ],
  [
    'a targetAttributes key one letter from a key Steadybit sends',
    { 'p.yaml': policy('p', 'rules:\n  - targetAttributes: {forbid: {k8s.deploymnt: [db]}}\n') },
    [
      'p.yaml:4:48 warning: rules[0].targetAttributes.forbid.k8s.deploymnt: attribute key "k8s.deploymnt" is one letter away from "k8s.deployment", a key Steadybit sends: did you mean "k8s.deployment"? (a misspelt key never matches what Steadybit sends)',
    ],
  ],
])('warns about %s, with a suggestion, and the set still loads', (_what, files, warnings) => {
  expect(loadProblems(files)).toEqual(warnings);
});

test.each([
  [
    'known names and keys',
    {
      'aliases.yaml': ALIASES,
      'p.yaml': policy(
        'p',
        'match: {environments: [production, staging-1, staging-2]}\nrules:\n  - blastRadius: {requireKeys: [k8s.namespace, k8s.cluster-name]}\n',
      ),
    },
  ],
  [
    "a label key of the user's own",
    {
      'p.yaml': policy(
        'p',
        'rules:\n  - targetAttributes: {forbid: {k8s.pod.label.tiers: [db], k8s.pod.label.tier: [x]}}\n',
      ),
    },
  ],
  [
    'a custom key far from any known one',
    { 'p.yaml': policy('p', 'rules:\n  - targetAttributes: {forbid: {team.cost-center: ["42"]}}\n') },
  ],
  [
    'environments of one family',
    {
      'p.yaml': policy(
        'p',
        'match: {environments: [prod-eu-1, prod-eu-2, zone-a, zone-b]}\nrules:\n  - environments: {blocked: [prod-eu-1]}\n',
      ),
    },
  ],
])('says nothing about %s', (_what, files) => {
  expect(loadProblems(files)).toEqual([]);
});

test('validate prints the warning with file:line:col and still exits 0', () => {
  const dir = mkdtempSync(join(tmpdir(), 'typos-'));
  try {
    writeFileSync(join(dir, 'aliases.yaml'), ALIASES);
    writeFileSync(join(dir, 'p.yaml'), policy('p', 'rules:\n  - environments: {blocked: [prodution]}\n'));
    const res = runCli(['validate', dir]);
    expect(res.stdout).toContain(
      `${join(dir, 'p.yaml')}:4:30 warning: rules[0].environments.blocked[0]: environment "prodution" is one letter away from "production"`,
    );
    expect(res.stdout).toMatch(/valid \(0 errors, 1 warning/);
    expect(res.code).toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
