import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { ROOT } from '../helpers/server-process';
import { stringify } from 'yaml';
import { BLOCK_PROD, runCli, runIn, tempDirs } from './run-cli';

const EXPIRED_EXCEPTION = `kind: Exception
name: old-waiver
policy: block-prod
owner: sre
reason: migration
expires: "2020-01-01T00:00:00Z"
`;

const BAD_RULE = `kind: Policy
name: broken
rules:
  - environments:
      blocked: [prod]
      allowed: [prod]
`;

describe('preflight-gate validate', () => {
  const dir = tempDirs();

  it('accepts the bundled policies with exit 0 and names the revision', () => {
    const res = runCli(['validate', 'policies']);
    expect(res.stderr).toBe('');
    expect(res.stdout).toMatch(
      /^policies: \d+ policy files?, \d+ polic(y|ies), \d+ test suites?, revision [0-9a-f]{12}: valid \(0 errors/m,
    );
    expect(res.code).toBe(0);
  });

  it('warns once per file of the directory that is not loaded, at that file (exit 0)', () => {
    const d = dir({ 'p.yaml': BLOCK_PROD, 'p.json': '{}', 'p.yaml.bak': BLOCK_PROD, 'README.md': '# policies' });
    const res = runCli(['validate', d]);
    expect(res.stdout.match(/not loaded, ignored/g)).toHaveLength(2);
    for (const f of ['p.json', 'p.yaml.bak'])
      expect(res.stdout).toContain(
        `${join(d, f)}:1:1 warning: not loaded, ignored: only *.yaml and *.yml files are policies (rename it to <name>.yaml`,
      );
    expect(res.code).toBe(0);
  });

  it('--format github annotates each file that is not loaded, at that file', () => {
    const d = dir({ 'p.yaml': BLOCK_PROD, 'p.json': '{}', 'p.yaml.bak': BLOCK_PROD });
    const lines = runCli(['validate', d, '--format', 'github']).stdout.split('\n');
    const annotations = lines.filter((l) => l.startsWith('::warning ') && l.includes('not loaded, ignored'));
    expect(annotations.map((l) => l.slice(0, l.indexOf(',line=')))).toEqual([
      `::warning file=${join(d, 'p.json')}`,
      `::warning file=${join(d, 'p.yaml.bak')}`,
    ]);
  });

  it('leaves the YAML files a suite reads (payloadFile, signalsFile) out of the policy set', () => {
    const suite = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payloadFile: testdata/run.yaml
cases:
  - name: prod is denied
    patch: { execution.environment: prod }
    signalsFile: signals.yml
    expect: { decision: deny, denied: [block-prod] }
`;
    const d = dir({
      'p.yaml': BLOCK_PROD,
      'p.test.yaml': suite,
      'testdata/run.yaml': stringify(runIn('staging')),
      'signals.yml': 'alertmanager: {}\n',
    });
    const res = runCli(['validate', d]);
    expect(res.stdout).toMatch(
      /: 1 policy file, \d+ polic(y|ies), 1 test suite, revision [0-9a-f]{12}: valid \(0 errors, 0 warnings\)$/m,
    );
    expect(res.code).toBe(0);
    const test = runCli(['test', d]);
    expect([test.code, test.stdout]).toEqual([0, expect.stringContaining('1 case: 1 passed, 0 failed')]);
  });

  it('--strict: a warning fails the set (exit 1) and the verdict says why; without warnings it passes', () => {
    const d = dir({ 'p.yaml': BLOCK_PROD, 'p.json': '{}' });
    const res = runCli(['validate', d, '--strict']);
    expect(res.stdout).toContain(`${join(d, 'p.json')}:1:1 warning: not loaded, ignored`);
    expect(res.stdout).toMatch(/: INVALID \(0 errors, 1 warning; --strict: warnings fail\)$/m);
    expect(res.code).toBe(1);
    const json = runCli(['validate', d, '--strict', '--format', 'json']);
    expect([json.code, JSON.parse(json.stdout)]).toEqual([1, expect.objectContaining({ ok: false, strict: true })]);
    expect(runCli(['validate', d]).code).toBe(0);
    expect(runCli(['validate', dir({ 'p.yaml': BLOCK_PROD }), '--strict']).code).toBe(0);
  });

  it('a policy saved as a test suite (prod.test.yaml) is one error naming the rename, not suite-schema errors', () => {
    const d = dir({ 'gate.yaml': BLOCK_PROD, 'prod.test.yaml': BAD_RULE.replace('broken', 'prod') });
    const res = runCli(['validate', d]);
    expect(res.stdout).toContain(
      `${join(d, 'prod.test.yaml')}:1:1 prod.test.yaml holds kind: Policy, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. prod.yaml)`,
    );
    expect(res.stdout).not.toMatch(/cases|must be equal to constant/);
    expect(res.stdout).toContain('INVALID (1 error,');
    expect(res.code).toBe(1);
  });

  it('a misspelt value in a test suite names the value meant, at its line', () => {
    const suite =
      'kind: PolicyTestSuite\ncases:\n  - name: prod\n    now: "2026-03-02T10:00:00Z"\n    payload: {}\n    expect: { decision: alow }\n';
    const d = dir({ 'gate.yaml': BLOCK_PROD, 'gate.test.yaml': suite });
    const res = runCli(['validate', d]);
    expect(res.stdout).toContain(
      `${join(d, 'gate.test.yaml')}:6:25 cases[0].expect.decision: must be one of allow, deny, got "alow": did you mean "allow"?`,
    );
    expect(res.code).toBe(1);
  });

  describe('--signal-sources: a rule naming a source the deployment does not define', () => {
    const SIGNALS = `kind: Policy
name: signals
rules:
  - alerts: { matchers: ['severity="critical"'], source: eu-wset }
  - prometheus: { query: 'up', denyWhen: '< 1', source: thanoss }
  - alerts: { matchers: ['severity="page"'] }
`;
    const SOURCES = `alertmanager:
  eu-west: { url: "https://am.eu.example.com", bearerTokenFile: /var/run/secrets/am/token }
prometheus:
  thanos: { url: "https://thanos.example.com", basicAuth: { username: u, passwordFile: /nowhere/password } }
`;
    const expected = (d: string, sources: string) => [
      `${join(d, 'p.yaml')}:4:58 rules[0].alerts.source: alertmanager "eu-wset" is not defined in the signal sources file ${sources}: did you mean "eu-west"? (its alertmanager sources: eu-west); the service would deny every run this rule judges`,
      `${join(d, 'p.yaml')}:5:57 rules[1].prometheus.source: prometheus "thanoss" is not defined in the signal sources file ${sources}: did you mean "thanos"? (its prometheus sources: thanos); the service would deny every run this rule judges`,
    ];

    it('is an error with the closest name the file defines (exit 1); the default source and secret files are not asked for', () => {
      const d = dir({ 'p.yaml': SIGNALS });
      const sources = join(dir({ 'sources.yaml': SOURCES }), 'sources.yaml');
      const res = runCli(['validate', d, '--signal-sources', sources]);
      for (const line of expected(d, sources)) expect(res.stdout).toContain(line);
      expect(res.stdout).not.toContain('"default"');
      expect(res.code).toBe(1);
    });

    it('with onUnavailable: allow, says the rule lets every run through unchecked, not that it denies', () => {
      const d = dir({
        'p.yaml': `kind: Policy
name: signals
rules:
  - alerts: { matchers: ['severity="critical"'], source: eu-wset, onUnavailable: allow }
  - prometheus: { query: 'up', denyWhen: '< 1', source: thanoss, onUnavailable: allow }
  - json: { path: /incidents, denyWhen: true, reason: open incidents, source: pager, onUnavailable: allow }
`,
      });
      const sources = join(dir({ 'sources.yaml': SOURCES }), 'sources.yaml');
      const res = runCli(['validate', d, '--signal-sources', sources]);
      const allowed =
        'with onUnavailable: allow the service would let every run this rule judges through unchecked: the rule is switched off, the guardrail is off';
      expect(res.stdout).toContain(
        `${join(d, 'p.yaml')}:4:58 rules[0].alerts.source: alertmanager "eu-wset" is not defined in the signal sources file ${sources}: did you mean "eu-west"? (its alertmanager sources: eu-west); ${allowed}`,
      );
      expect(res.stdout).toContain(`rules[1].prometheus.source: prometheus "thanoss" is not defined`);
      expect(res.stdout).toContain(`rules[2].json.source: json "pager" is not defined`);
      // Each at its own rule's source:, never at the policy's first line.
      expect(res.stdout.match(/p\.yaml:\d+:\d+ rules/g)).toEqual([
        'p.yaml:4:58 rules',
        'p.yaml:5:57 rules',
        'p.yaml:6:79 rules',
      ]);
      expect(res.stdout.match(/through unchecked/g)).toHaveLength(3);
      expect(res.stdout).not.toContain('would deny every run');
      expect(res.code).toBe(1);
    });

    it('reads SIGNAL_SOURCES_FILE when the flag is not given', () => {
      const d = dir({ 'p.yaml': SIGNALS });
      const sources = join(dir({ 'sources.yaml': SOURCES }), 'sources.yaml');
      const res = runCli(['validate', d], { env: { SIGNAL_SOURCES_FILE: sources } });
      for (const line of expected(d, sources)) expect(res.stdout).toContain(line);
      expect(res.code).toBe(1);
    });

    it('without a sources file, sources are not checked (as before)', () => {
      const res = runCli(['validate', dir({ 'p.yaml': SIGNALS })]);
      expect(res.stdout).not.toContain('is not defined in the signal sources file');
      expect(res.code).toBe(0);
    });

    it('a sources file that breaks its schema is a usage error naming it (exit 2)', () => {
      const sources = join(dir({ 'sources.yaml': 'alertmanager:\n  eu: { adress: x }\n' }), 'sources.yaml');
      const res = runCli(['validate', dir({ 'p.yaml': SIGNALS }), '--signal-sources', sources]);
      expect(res.stderr).toContain(
        `SIGNAL_SOURCES_FILE ${sources} is invalid: ${sources}:2:7 alertmanager.eu: url is required; ${sources}:2:9 alertmanager.eu.adress: adress is not a known field`,
      );
      expect(res.code).toBe(2);
    });
  });

  it('a sources file entry the service would refuse is a usage error at its field (exit 2), as at start-up', () => {
    const sources = join(
      dir({ 'sources.yaml': 'alertmanager:\n  eu:\n    url: am.example.com:9093\n' }),
      'sources.yaml',
    );
    const res = runCli(['validate', dir({ 'p.yaml': BLOCK_PROD }), '--signal-sources', sources]);
    expect(res.stderr).toBe(
      `preflight-gate: SIGNAL_SOURCES_FILE ${sources} is invalid: ${sources}:3:5 alertmanager.eu.url must be an http:// or https:// URL, got "am.example.com:9093"\n`,
    );
    expect(res.code).toBe(2);
  });

  it('an unreadable sources file names the flag that gave it, or the variable (exit 2)', () => {
    const d = dir({ 'p.yaml': BLOCK_PROD });
    const missing = join(d, 'no-sources.yaml');
    const flag = runCli(['validate', d, '--signal-sources', missing]);
    expect([flag.code, flag.stderr]).toEqual([
      2,
      expect.stringMatching(/^preflight-gate: --signal-sources: cannot read /),
    ]);
    expect(flag.stderr).toContain(missing);
    const variable = runCli(['validate', d], { env: { SIGNAL_SOURCES_FILE: missing } });
    expect([variable.code, variable.stderr]).toEqual([2, expect.stringContaining('SIGNAL_SOURCES_FILE: cannot read')]);
  });

  it('uses POLICY_DIR when no directory is given', () => {
    const d = dir({ 'p.yaml': BLOCK_PROD });
    const res = runCli(['validate'], { env: { POLICY_DIR: d } });
    expect(res.stdout).toContain(`${d}: 1 policy file, 1 policy`);
    expect(res.code).toBe(0);
  });

  it.each([
    ['a YAML syntax error', { 'p.yaml': 'kind: Policy\nname: [oops\n' }, /p\.yaml:\d+:\d+ YAML syntax error/],
    [
      'a semantic error, at the rule',
      { 'p.yaml': BAD_RULE },
      /p\.yaml:5:\d+ rules\[0\]\.environments: environment "prod" is both blocked and allowed/,
    ],
    [
      'an unknown rule kind',
      { 'p.yaml': 'kind: Policy\nname: x\nrules:\n  - nosuchrule: {}\n' },
      /p\.yaml:4:\d+ .*unknown rule kind "nosuchrule"/,
    ],
    [
      'a broken test suite',
      { 'p.yaml': BLOCK_PROD, 'p.test.yaml': 'cases: []\n' },
      /p\.test\.yaml:1:8 cases: must NOT have fewer than 1 items/,
    ],
    [
      'a misspelt key in a test suite, at the key (its value is a block on the next line)',
      {
        'p.yaml': BLOCK_PROD,
        'p.test.yaml':
          'cases:\n  - name: x\n    now: "2026-01-05T10:00:00Z"\n    payload: {}\n    expect: { decision: allow }\n    pach:\n      execution.environment: prod\n',
      },
      /p\.test\.yaml:6:5 cases\[0\]\.pach: pach is not a known field/,
    ],
  ])('reports %s as file:line:col message and exits 1', (_name, files, line) => {
    const res = runCli(['validate', dir(files)]);
    expect(res.stdout).toMatch(line);
    expect(res.stdout).toMatch(/INVALID \([1-9]\d* errors?/);
    expect(res.code).toBe(1);
  });

  it('prints warnings but exits 0 when there is no error', () => {
    const res = runCli(['validate', dir({ 'p.yaml': BLOCK_PROD, 'e.yaml': EXPIRED_EXCEPTION })]);
    expect(res.stdout).toMatch(/e\.yaml:6:10 warning: expires: exception "old-waiver" expired at 2020-01-01T00:00:00Z/);
    expect(res.stdout).toContain('valid (0 errors, 1 warning)');
    expect(res.code).toBe(0);
  });

  it('writes GitHub Actions annotations with --format github', () => {
    const d = dir({ 'p.yaml': BAD_RULE, 'e.yaml': EXPIRED_EXCEPTION.replace('block-prod', 'broken') });
    const res = runCli(['validate', d, '--format', 'github']);
    const lines = res.stdout.trim().split('\n');
    expect(lines).toContain(
      `::error file=${d}/p.yaml,line=5,col=7,title=preflight-gate::rules[0].environments: environment "prod" is both blocked and allowed`,
    );
    expect(res.code).toBe(1);
  });

  it('escapes newlines and commas the way GitHub workflow commands require', () => {
    const res = runCli([
      'validate',
      dir({ 'a,b.yaml': 'kind: Policy\nname: x\nrules:\n  - nosuchrule: {}\n' }),
      '--format',
      'github',
    ]);
    expect(res.stdout).toMatch(/::error file=[^:]*a%2Cb\.yaml,line=4/);
    expect(res.code).toBe(1);
  });

  it('writes one JSON document with --format json', () => {
    const res = runCli(['validate', dir({ 'p.yaml': BAD_RULE }), '--format', 'json']);
    const report = JSON.parse(res.stdout);
    expect(report).toMatchObject({ ok: false, errors: 1, warnings: 0, files: 1 });
    expect(report.problems[0]).toMatchObject({ line: 5, severity: 'error', path: 'rules[0].environments' });
    expect(res.code).toBe(1);
  });

  it.each([
    [
      'a directory that does not exist',
      ['validate', '/nonexistent/policies'],
      /policy directory \/nonexistent\/policies does not exist/,
    ],
    ['a file instead of a directory', ['validate', 'package.json'], /package\.json is not a directory/],
    ['an unknown flag', ['validate', '--strikt'], /unknown option '--strikt'/],
    [
      'an unknown format',
      ['validate', '--format', 'xml'],
      /argument 'xml' is invalid\. Allowed choices are text, json, github/,
    ],
    ['an unknown command', ['lint'], /unknown command 'lint'/],
    ['no command at all', [], /Usage: preflight-gate/],
  ])('rejects %s on stderr with exit 2', (_name, args, message) => {
    const res = runCli(args);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(res.code).toBe(2);
  });

  it('reports every problem of a run at once: all files, all documents, every rule of a document', () => {
    const fixtures = join(ROOT, 'test', 'fixtures', 'malformed-policies');
    const res = runCli(['validate', fixtures, '--format', 'json']);
    const out = JSON.parse(res.stdout) as { errors: number; problems: Array<{ file: string; line: number }> };
    const expected = readdirSync(fixtures)
      .map((f) => problemsOfFile(join(fixtures, f)))
      .reduce((a, b) => a + b, 0);
    expect(expected).toBeGreaterThan(readdirSync(fixtures).length * 2);
    expect(out.errors).toBe(expected);
    expect(new Set(out.problems.map((p) => p.file)).size).toBe(readdirSync(fixtures).length);
    expect(res.code).toBe(1);
  });
});

/** The errors the loader finds in one file on its own. */
function problemsOfFile(path: string): number {
  const result = loadBundle([{ file: path, text: readFileSync(path, 'utf8') }]);
  return result.ok ? 0 : result.problems.filter((p) => p.severity === 'error').length;
}
