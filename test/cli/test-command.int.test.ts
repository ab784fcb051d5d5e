import { BLOCK_PROD, runCli, runIn, TAG_RUNS, tempDirs, WARN_BIG } from './run-cli';

const POLICIES = { 'block-prod.yaml': BLOCK_PROD, 'warn.yaml': WARN_BIG, 'tag.yaml': TAG_RUNS };

const EMERGENCY = `kind: Policy
name: emergency-stop
rules:
  - emergencyStop: {}
`;

/** A suite whose cases all hold for POLICIES; each test below breaks exactly one thing. */
const GOOD_SUITE = `kind: PolicyTestSuite
defaults:
  now: "2026-03-02T10:00:00Z"
  payloadFile: payloads/run.json
cases:
  - name: prod is denied
    patch:
      execution.environment: prod
    expect:
      decision: deny
      denied: [block-prod]
      message: "environment prod is blocked"
  - name: staging is allowed with a warning and tagged
    expect:
      decision: allow
      warned: [warn-big-radius]
      results: { block-prod: pass, tag-runs: pass }
      message: "^Allowed with warnings: "
      modifications:
        - { type: set_property_value, propertyKey: preflight.decision, value: test }
  - name: dev is allowed without warnings
    payload: ${JSON.stringify(runIn('dev'))}
    expect:
      decision: allow
      results: { warn-big-radius: skipped }
      modifications:
        - { type: set_property_value, propertyKey: preflight.decision, valuePattern: "^te" }
`;

const withSuite = (suite: string, extra: Record<string, string> = {}) => ({
  ...POLICIES,
  'payloads/run.json': JSON.stringify(runIn('staging')),
  'policies.test.yaml': suite,
  ...extra,
});

describe('preflight-gate test', () => {
  const dir = tempDirs();

  it('passes the bundled policies with their suites', () => {
    const res = runCli(['test', 'policies']);
    expect(res.stdout).toMatch(/^OK: \d+ suites? \(0 failed\), \d+ cases: \d+ passed, 0 failed/m);
    expect(res.code).toBe(0);
  });

  it('passes a suite whose expectations hold: payload files, inline payloads, patches, warnings, modifications', () => {
    const res = runCli(['test', dir(withSuite(GOOD_SUITE))]);
    expect(res.stdout).toContain('PASS ');
    expect(res.stdout).toContain('OK: 1 suite (0 failed), 3 cases: 3 passed, 0 failed');
    expect(res.code).toBe(0);
  });

  it('--strict: a warning of the policy set (a likely typo) fails a run whose cases pass (exit 1)', () => {
    const typo = `kind: Policy\nname: block-production\nrules:\n  - environments: { blocked: [production, prodution] }\n`;
    const d = dir(withSuite(GOOD_SUITE, { 'typo.yaml': typo }));
    const lenient = runCli(['test', d]);
    expect([lenient.code, lenient.stdout]).toEqual([0, expect.stringContaining('did you mean "production"?')]);
    const strict = runCli(['test', d, '--strict']);
    expect(strict.stdout).toContain('OK: 1 suite (0 failed), 3 cases: 3 passed, 0 failed');
    expect(strict.stderr).toMatch(/^preflight-gate: \d+ warnings? \(see above\) and --strict: failing$/m);
    expect(strict.code).toBe(1);
    expect(runCli(['test', dir(withSuite(GOOD_SUITE)), '--strict']).code).toBe(0);
  });

  it('a misspelt field of a suite names the field meant, at its line (exit 2: the suite cannot run)', () => {
    const d = dir(
      withSuite(GOOD_SUITE.replace('    expect:\n      decision: deny', '    expct:\n      decision: deny')),
    );
    const res = runCli(['test', d]);
    expect(res.stdout).toContain(
      `${d}/policies.test.yaml:9:5 cases[0].expct: expct is not a known field: did you mean "expect"? (known fields: `,
    );
    expect(res.stdout).not.toContain('expect is required');
    expect(res.code).toBe(2);
  });

  it('names each file of the directory that is not loaded, at that file, as validate does (a warning: exit 0)', () => {
    const d = dir(withSuite(GOOD_SUITE, { 'prod.json': '{}' }));
    const res = runCli(['test', d]);
    expect(res.stdout).toContain(`${d}/prod.json:1:1 warning: not loaded, ignored: only *.yaml and *.yml files`);
    expect(res.stdout).toContain('OK: 1 suite (0 failed), 3 cases: 3 passed, 0 failed');
    expect(res.code).toBe(0);
    expect(runCli(['test', d, '--strict']).code).toBe(1);
  });

  it('passes state facts to rules that need them', () => {
    const suite = `defaults:
  now: "2026-03-02T10:00:00Z"
  payload: ${JSON.stringify(runIn('dev'))}
cases:
  - name: denied while the emergency stop is engaged
    state: { emergencyStop: { engaged: true, by: alice, since: "2026-03-02T09:00:00Z" } }
    expect: { decision: deny, denied: [emergency-stop, "emergency-stop (built-in)"], message: "engaged \\\\(by alice" }
  - name: allowed once it is disengaged
    state: { emergencyStop: { engaged: false } }
    expect: { decision: allow }
`;
    const res = runCli(['test', dir({ 'e.yaml': EMERGENCY, 'e.test.yaml': suite })]);
    expect(res.stdout).toContain('2 cases: 2 passed, 0 failed');
    expect(res.code).toBe(0);
  });

  it('passes the Steadybit names of environments to the policies, as the service with the Platform API', () => {
    const id = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
    const suite = `defaults:
  now: "2026-03-02T10:00:00Z"
  payload: ${JSON.stringify(runIn(id))}
cases:
  - name: the id of prod is denied by name
    environments: { "${id}": { name: prod } }
    expect: { decision: deny, denied: [block-prod], message: "environment prod \\\\(${id}\\\\) is blocked" }
  - name: a name that cannot be known cannot decide
    environments: { "${id}": { unknown: the platform is down } }
    expect: { decision: deny, denied: [block-prod], message: "cannot decide whether environment ${id} is blocked: the platform is down" }
  - name: without names (no Platform API), the id alone does not match prod
    expect: { decision: allow }
`;
    const res = runCli(['test', dir({ 'block-prod.yaml': BLOCK_PROD, 'names.test.yaml': suite })]);
    expect(res.stdout).toContain('3 cases: 3 passed, 0 failed');
    expect(res.code).toBe(0);
  });

  it.each([
    [
      'a misnamed policy',
      GOOD_SUITE.replace('denied: [block-prod]', 'denied: [block-production]'),
      [
        /policies\.test\.yaml:11:\d+ cases\[0\]\.expect\.denied\[0\]: policy "block-production" does not exist in this policy set/,
        /block-prod denied unexpectedly/,
      ],
      2,
    ],
    [
      'a misnamed policy in results',
      GOOD_SUITE.replace('results: { block-prod: pass', 'results: { blockprod: pass'),
      [/policy "blockprod" does not exist/, /results\.blockprod: expected pass, got not evaluated/],
      2,
    ],
    [
      'an expected denial that no policy made',
      GOOD_SUITE.replace('execution.environment: prod', 'execution.environment: qa'),
      [
        /decision: expected deny, got allow/,
        /denied: expected block-prod, got \(none\)/,
        /no policy denied at all/,
        /block-prod did not deny \(pass/,
      ],
      1,
    ],
    [
      'a policy left out of the exact set',
      GOOD_SUITE.replace('      warned: [warn-big-radius]\n', ''),
      [
        /warned: expected \(none\), got warn-big-radius/,
        /warn-big-radius warned unexpectedly \(warn: environment staging is blocked\)/,
      ],
      1,
    ],
    [
      'a message that does not match',
      GOOD_SUITE.replace('"environment prod is blocked"', '"is forbidden"'),
      [
        /message: expected to match \/is forbidden\/, got "Denied by 1 policy: \[block-prod\] environment prod is blocked/,
      ],
      1,
    ],
    [
      'a missing modification',
      GOOD_SUITE.replace('value: test }', 'value: other }'),
      [
        /modifications: expected 1, got 1/,
        /missing: set_property_value preflight\.decision="other"/,
        /unexpected: set_property_value preflight\.decision="test"/,
      ],
      1,
    ],
    [
      'a payload file that does not exist',
      GOOD_SUITE.replace('payloads/run.json', 'payloads/nope.json'),
      [/:4:16 defaults\.payloadFile: the defaults .* give payloadFile payloads\/nope\.json, but it does not exist/],
      2,
    ],
    // A misspelt patch path once added a new field and the case passed, testing nothing.
    [
      'a misspelt patch path in a case that would pass anyway',
      GOOD_SUITE.replace(
        '  - name: staging is allowed with a warning and tagged\n',
        '  - name: staging is allowed with a warning and tagged\n    patch: { execution.enviroment: prod }\n',
      ),
      [
        /✗ staging is allowed with a warning and tagged \(.*policies\.test\.yaml:13:5\)\n +cannot run: .*policies\.test\.yaml:14:14 cases\[1\]\.patch\.execution\.enviroment: patch "execution\.enviroment": execution has no field enviroment \(its fields: id, experimentKey, teamKey, environment, steps\); a field the payload lacks is added under add/,
      ],
      2,
    ],
    [
      'a misspelt patch path in the defaults',
      GOOD_SUITE.replace(
        '  payloadFile: payloads/run.json\n',
        '  payloadFile: payloads/run.json\n  patch: { execution.createdvia: UI }\n',
      ),
      [
        /policies\.test\.yaml:5:12 defaults\.patch\.execution\.createdvia: patch "execution\.createdvia": execution has no field createdvia/,
        /0\/3 cases passed/,
      ],
      2,
    ],
    [
      'an add of a field the payload has',
      GOOD_SUITE.replace(
        '    patch:\n      execution.environment: prod\n',
        '    add:\n      execution.environment: prod\n',
      ),
      [
        /policies\.test\.yaml:8:7 cases\[0\]\.add\.execution\.environment: add "execution\.environment": the payload already has this field: change it under patch/,
      ],
      2,
    ],
    // Issue 19 item 2: malformed state facts are read as nothing no more, in suites as in eval --state.
    [
      'malformed state facts in a case',
      GOOD_SUITE.replace(
        '  - name: dev is allowed without warnings\n',
        '  - name: dev is allowed without warnings\n    state: { emergencyStop: true, running: [a] }\n',
      ),
      [
        /policies\.test\.yaml:\d+:\d+ cases\[2\]\.state\.emergencyStop: must be object/,
        /policies\.test\.yaml:\d+:\d+ cases\[2\]\.state\.running: must be object/,
      ],
      2,
    ],
    [
      'a payload the service would reject',
      GOOD_SUITE.replace('execution.environment: prod', 'event: nope'),
      [/cannot run: the payload is not a valid preflight payload \(the service would answer 400\): event must be/],
      2,
    ],
  ])(
    'fails on %s, spelling out what did not hold (exit 1: a case failed; 2: the suite cannot run as written)',
    (_name, suite, messages, code) => {
      const res = runCli(['test', dir(withSuite(suite))]);
      expect(res.stdout).toMatch(/^FAIL .*policies\.test\.yaml/m);
      for (const m of messages) expect(res.stdout).toMatch(m);
      expect(res.stdout).toMatch(/^FAILED: /m);
      expect(res.code).toBe(code);
    },
  );

  it.each([
    [
      'an empty suite (cases: [])',
      withSuite('cases: []\n'),
      /policies\.test\.yaml:1:8 cases: must NOT have fewer than 1 items/,
      2,
    ],
    ['an empty suite file', withSuite(''), /policies\.test\.yaml:1:1 empty test suite: it needs `cases`/, 2],
    ['no suites at all', POLICIES, /FAIL: no policy test suites \(\*\.test\.yaml\) found in .*: nothing was tested/, 1],
    [
      'a suite with a schema error',
      withSuite(GOOD_SUITE.replace('decision: deny', 'decision: block')),
      /policies\.test\.yaml:10:17 cases\[0\]\.expect\.decision: must be one of allow, deny/,
      2,
    ],
    [
      'a case without a pinned now',
      withSuite(GOOD_SUITE.replace('  now: "2026-03-02T10:00:00Z"\n', '')),
      /cases\[0\]: case "prod is denied" has no pinned now/,
      2,
    ],
    [
      'an invalid message regex',
      withSuite(GOOD_SUITE.replace('"environment prod is blocked"', '"(unclosed"')),
      /cases\[0\]\.expect\.message: not a valid regular expression/,
      2,
    ],
    [
      'an invalid policy set',
      withSuite(GOOD_SUITE, { 'broken.yaml': 'kind: Policy\nname: x\n' }),
      /broken\.yaml:1:1 a policy needs rules[\s\S]*FAIL: the policy set is invalid, so no case ran/,
      1,
    ],
  ])('fails on %s instead of passing by accident', (_name, files, message, code) => {
    const res = runCli(['test', dir(files)]);
    expect(res.stdout).toMatch(message);
    expect(res.stdout).toMatch(/^FAILED: /m);
    expect(res.code).toBe(code);
  });

  describe('a payload or signals file that does not exist', () => {
    const file = (d: string) => `${d}/policies.test.yaml`;
    it.each([
      [
        'misspelt in the defaults: every case reads it, and the file one edit away is named',
        GOOD_SUITE.replace('payloadFile: payloads/run.json', 'payloadFile: payloads/rnu.json'),
        (d: string) =>
          `${file(d)}:4:16 defaults.payloadFile: the defaults (read by 2 cases: "prod is denied", "staging is allowed with a warning and tagged") give payloadFile payloads/rnu.json, but it does not exist (looked for ${d}/payloads/rnu.json); did you mean payloads/run.json?`,
      ],
      [
        'in a misspelt directory of a case',
        GOOD_SUITE.replace(
          '  - name: prod is denied\n',
          '  - name: prod is denied\n    payloadFile: paylods/run.json\n',
        ),
        (d: string) =>
          `${file(d)}:7:18 cases[0].payloadFile: case "prod is denied" reads payloadFile paylods/run.json, but it does not exist (looked for ${d}/paylods/run.json); did you mean payloads/run.json?`,
      ],
      [
        'with nothing near it',
        GOOD_SUITE.replace(
          '  - name: prod is denied\n',
          '  - name: prod is denied\n    payloadFile: testdata/prod.yaml\n',
        ),
        (d: string) =>
          `${file(d)}:7:18 cases[0].payloadFile: case "prod is denied" reads payloadFile testdata/prod.yaml, but it does not exist (looked for ${d}/testdata/prod.yaml)\n`,
      ],
      [
        'a signals file',
        GOOD_SUITE.replace('  - name: prod is denied\n', '  - name: prod is denied\n    signalsFile: signals.json\n'),
        (d: string) =>
          `${file(d)}:7:18 cases[0].signalsFile: case "prod is denied" reads signalsFile signals.json, but it does not exist (looked for ${d}/signals.json)\n`,
      ],
      [
        'a directory given as the payload file',
        GOOD_SUITE.replace('payloadFile: payloads/run.json', 'payloadFile: payloads'),
        (d: string) =>
          `${file(d)}:4:16 defaults.payloadFile: the defaults (read by 2 cases: "prod is denied", "staging is allowed with a warning and tagged") give payloadFile payloads, but ${d}/payloads is not a file`,
      ],
    ])('is refused by validate (exit 1) and test (exit 2, no case runs) when %s', (_name, suite, message) => {
      const d = dir(withSuite(suite));
      const validated = runCli(['validate', d]);
      expect(validated.stdout).toContain(message(d));
      // When no case reads payloads/run.json any more, validate also names it as a file it does not read.
      const unread = !suite.includes('payloadFile: payloads/run.json');
      expect(validated.stdout).toMatch(unread ? /INVALID \(1 error, 1 warning\)/ : /INVALID \(1 error, 0 warnings\)/);
      if (unread) expect(validated.stdout).toContain('payloads/run.json:1:1 warning: not loaded, ignored: only');
      expect(validated.code).toBe(1);
      const tested = runCli(['test', d]);
      expect(tested.stdout).toContain(message(d));
      // A suite that cannot run says why on its line and counts as failed, its cases as not run (never "0/0 passed").
      expect(tested.stdout).toMatch(
        /^FAIL .*policies\.test\.yaml: could not run: the suite file has 1 error \(below\); 3 cases not tested$/m,
      );
      expect(tested.stdout).toMatch(
        /^FAILED: 1 suite \(1 failed, 1 of them could not run\), 0 cases: 0 passed, 0 failed, 3 not run; policy revision /m,
      );
      expect(tested.code).toBe(2);
    });
  });

  it('writes JUnit XML with a <failure> per failing case and for a broken suite', () => {
    const d = dir(
      withSuite(GOOD_SUITE.replace('execution.environment: prod', 'execution.environment: qa'), {
        'empty.test.yaml': 'cases: []\n',
      }),
    );
    const res = runCli(['test', d, '--format', 'junit']);
    expect(res.stdout).toMatch(
      /^<\?xml version="1\.0" encoding="UTF-8"\?>\n<testsuites name="preflight-gate policy tests" tests="4" failures="2" time="\d+\.\d{3}">/,
    );
    expect(res.stdout).toMatch(
      new RegExp(
        `<testcase classname="${d}/policies\\.test\\.yaml" name="prod is denied" file="${d}/policies\\.test\\.yaml" line="6" time="\\d+\\.\\d{3}"><failure message="decision: expected deny, got allow`,
      ),
    );
    expect(res.stdout).toContain(
      `name="suite is valid" time="0.000"><failure message="${d}/empty.test.yaml:1:8 cases: must NOT have fewer than 1 items"`,
    );
    // Every <testsuites>, <testsuite> and <testcase> has a time (seconds), the sum of its cases for a suite.
    expect(
      res.stdout.match(/<test(suites|suite|case) [^>]*>/g)?.filter((tag) => !/ time="\d+\.\d{3}"/.test(tag)),
    ).toEqual([]);
    const suiteTag = /<testsuite name="[^"]*policies\.test\.yaml" [^>]*time="([\d.]+)"/.exec(res.stdout);
    const caseTimes = [
      ...res.stdout.matchAll(/<testcase classname="[^"]*policies\.test\.yaml"[^>]* time="([\d.]+)"/g),
    ].map((m) => Number(m[1]));
    expect(Number(suiteTag?.[1])).toBeCloseTo(
      caseTimes.reduce((a, b) => a + b, 0),
      2,
    );
    expect(res.stdout.match(/<testcase /g)).toHaveLength(4);
    expect(res.code).toBe(2); // the empty suite cannot run as written
  });

  it('writes JSON with every case and its failures', () => {
    const res = runCli([
      'test',
      dir(withSuite(GOOD_SUITE.replace('execution.environment: prod', 'execution.environment: qa'))),
      '--format',
      'json',
    ]);
    const run = JSON.parse(res.stdout);
    expect(run.ok).toBe(false);
    expect(run.counts).toEqual({
      suites: 1,
      failedSuites: 1,
      notRunSuites: 0,
      cases: 3,
      passed: 2,
      failed: 1,
      notRun: 0,
      uncountedSuites: 0,
    });
    expect(run.suites[0].cases[0]).toMatchObject({ name: 'prod is denied', ok: false, line: 6 });
    const failed = run.suites[0].cases[0];
    expect(failed.message).toMatch(
      /^Allowed: 3 of 4 policies applied, none denied\. \(decision test, policy revision [0-9a-f]{12}\)$/,
    );
    expect(failed.failures[0]).toBe(`decision: expected deny, got allow ("${failed.message}")`);
    expect(run.invalidSuites).toBe(false);
    expect(res.code).toBe(1);
  });

  it.each([
    ['a directory that does not exist', ['test', '/nonexistent'], /policy directory \/nonexistent does not exist/],
    ['an unknown format', ['test', 'policies', '--format', 'tap'], /Allowed choices are text, junit, json/],
  ])('rejects %s with exit 2', (_name, args, message) => {
    const res = runCli(args);
    expect(res.stderr).toMatch(message);
    expect(res.code).toBe(2);
  });
});
