import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { BLOCK_PROD, runCli, runIn, TAG_RUNS, tempDir, WARN_BIG } from './run-cli';

describe('preflight-gate eval', () => {
  const { dir, cleanup } = tempDir({ 'block-prod.yaml': BLOCK_PROD, 'warn.yaml': WARN_BIG, 'tag.yaml': TAG_RUNS });
  const payloadFile = (name: string, body: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof body === 'string' ? body : JSON.stringify(body));
    return file;
  };
  const prod = payloadFile('prod.json', runIn('prod'));
  const staging = payloadFile('staging.json', runIn('staging'));
  afterAll(cleanup);

  it('prints the denial the service would answer, and exits 0 because it evaluated', () => {
    const res = runCli(['eval', '--payload', prod, '--dir', dir]);
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[block-prod\] environment prod is blocked \(decision [0-9a-f-]{36}, policy revision [0-9a-f]{12}\)\n/,
    );
    expect(res.code).toBe(0);
  });

  it.each([
    ['a denial', prod, 1],
    ['an allowed run', staging, 0],
  ])('with --exit-code exits 1 only on a denial: %s', (_name, file, code) => {
    expect(runCli(['eval', '--payload', file, '--dir', dir, '--exit-code']).code).toBe(code);
  });

  it('prints modifications of an allowed run and, with --explain, every policy with its reasons', () => {
    const res = runCli(['eval', '--payload', staging, '--dir', dir, '--explain', '--now', '2026-03-02T10:00:00Z']);
    const out = res.stdout;
    expect(out).toMatch(
      /^ALLOW \(HTTP 200\)\nmessage: Allowed with warnings: \[warn-big-radius\] would deny: staging runs are watched: environment staging is blocked/,
    );
    expect(out).toContain('evaluated at: 2026-03-02T10:00:00.000Z');
    expect(out).toMatch(/modifications:\n {2}set_property_value preflight\.decision = "[0-9a-f-]{36}"/);
    expect(out).toMatch(
      / {2}warn {4}warn-big-radius \(warn, priority 100\) .*warn\.yaml:1\n {10}- environment staging is blocked\n {10}message: staging runs are watched: environment staging is blocked\n/,
    );
    expect(out).toMatch(/ {2}pass {4}block-prod \(enforce, priority 100\)/);
    expect(out).toMatch(/ {2}pass {4}tag-runs \(enforce, priority 100\)/);
    expect(res.code).toBe(0);
  });

  it('lists policies skipped for their scope with --explain', () => {
    const res = runCli(['eval', '--payload', prod, '--dir', dir, '--explain']);
    expect(res.stdout).toMatch(/ {2}skipped warn-big-radius .*\n {10}- environment prod not in match\.environments/);
  });

  it('prints the HTTP answer as JSON with --format json, and the explanation with --explain', () => {
    const res = runCli(['eval', '--payload', prod, '--dir', dir, '--format', 'json', '--explain']);
    const out = JSON.parse(res.stdout);
    expect(out).toMatchObject({
      status: 403,
      allowed: false,
      body: { message: expect.stringMatching(/^Denied by 1 policy: \[block-prod\]/) },
    });
    expect(out.body.modifications).toBeUndefined();
    expect(
      out.explanation.results.map((r: { policy: string; result: string }) => `${r.policy}:${r.result}`).sort(),
    ).toEqual(['block-prod:deny', 'emergency-stop (built-in):pass', 'tag-runs:pass', 'warn-big-radius:skipped']);
  });

  it('passes --state facts to rules that need them', () => {
    const stateDir = tempDir({
      'stop.yaml': 'kind: Policy\nname: emergency-stop\nrules:\n  - emergencyStop: {}\n',
      'engaged.json': JSON.stringify({ emergencyStop: { engaged: true, by: 'alice', since: '2026-03-02T09:00:00Z' } }),
      'no-stop.json': JSON.stringify({ running: {} }),
    });
    // The policy's own rule, with the built-in stop off (the built-in one is tested on its own).
    const env = { EMERGENCY_STOP_POLICY: 'off' };
    try {
      const engaged = runCli(
        ['eval', '--payload', staging, '--dir', stateDir.dir, '--state', join(stateDir.dir, 'engaged.json')],
        { env },
      );
      expect(engaged.stdout).toMatch(
        /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[emergency-stop\] the emergency stop is engaged \(by alice since 2026-03-02T09:00:00Z\)/,
      );
      const unknown = runCli(
        ['eval', '--payload', staging, '--dir', stateDir.dir, '--state', join(stateDir.dir, 'no-stop.json')],
        { env },
      );
      expect(unknown.stdout).toMatch(/\[emergency-stop\] cannot decide: the emergency stop state was not loaded/);
    } finally {
      stateDir.cleanup();
    }
  });

  it("applies the built-in emergency stop as the service does: engaged in --state denies; without --state a fresh service's facts allow", () => {
    const engaged = payloadFile('engaged.json', {
      emergencyStop: { engaged: true, by: 'alice', since: '2026-03-02T09:00:00Z' },
    });
    const res = runCli(['eval', '--payload', staging, '--dir', dir, '--state', engaged]);
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[emergency-stop \(built-in\)\] the emergency stop is engaged \(by alice since 2026-03-02T09:00:00Z\)/,
    );
    expect(runCli(['eval', '--payload', staging, '--dir', dir]).stdout).toMatch(
      /^ALLOW \(HTTP 200\)\nmessage: Allowed with warnings/,
    );
    expect(
      runCli(['eval', '--payload', staging, '--dir', dir, '--state', engaged], {
        env: { EMERGENCY_STOP_POLICY: 'off' },
      }).stdout,
    ).toMatch(/^ALLOW/);
    const bad = runCli(['eval', '--payload', staging, '--dir', dir], { env: { EMERGENCY_STOP_POLICY: 'warn' } });
    expect([bad.code, bad.stderr]).toEqual([
      2,
      expect.stringContaining('EMERGENCY_STOP_POLICY must be one of enforce, off, got "warn"'),
    ]);
  });

  it.each([
    ['a bare boolean', { emergencyStop: true }, 'emergencyStop: must be object'],
    ['a list where runs by scope belong', { running: [{ id: '1', atMs: 1 }] }, 'running: must be object'],
    ['an unknown key', { emergencyStop: { engaged: false }, runing: {} }, 'runing: is not a known field'],
    [
      'a run without its time',
      { running: { 'environment:prod': [{ id: '1' }] } },
      'running.environment:prod[0].atMs: is required',
    ],
    [
      'an ended run without how it ended',
      { ended: { 'team:shop': [{ id: '1', atMs: 1 }] } },
      'ended.team:shop[0].state: is required',
    ],
    [
      'an upper-case scope key',
      { running: { 'team:SHOP': [] } },
      'running.team:SHOP: scope keys are lower-case: write "team:shop"',
    ],
    [
      'a scope key of no kind',
      { running: { shop: [] } },
      'running.shop: a scope key is "team:<team key>", "environment:<environment name or id>" or "service:<attribute>=<value>"',
    ],
  ])('refuses malformed state facts (%s) with exit 2, naming the path', (_name, facts, message) => {
    const res = runCli(['eval', '--payload', staging, '--dir', dir, '--state', payloadFile('bad-state.json', facts)]);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('is not valid state facts');
    expect(res.stderr).toContain(message);
    expect(res.stdout).toBe('');
  });

  it('takes a numeric execution id in the state facts as the run itself, as payloads carry it', () => {
    const limit = tempDir({
      'one.yaml': 'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1}\n',
    });
    try {
      // runIn() is execution 7: running as itself (a number) does not count; another run does.
      const itself = payloadFile('itself.json', {
        emergencyStop: { engaged: false },
        running: { 'environment:staging': [{ id: 7, atMs: 1767520800000 }] },
      });
      const other = payloadFile('other.json', {
        emergencyStop: { engaged: false },
        running: { 'environment:staging': [{ id: 8, atMs: 1767520800000 }] },
      });
      expect(runCli(['eval', '--payload', staging, '--dir', limit.dir, '--state', itself]).stdout).toMatch(/^ALLOW/);
      expect(runCli(['eval', '--payload', staging, '--dir', limit.dir, '--state', other]).stdout).toMatch(
        /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[one-at-a-time\] environment staging already has 1 running execution \(at most 1\): 8 /,
      );
    } finally {
      limit.cleanup();
    }
  });

  describe('--environments: the Steadybit names the service reads from the Platform API', () => {
    const id = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
    const byId = payloadFile('by-id.json', runIn(id));
    it.each([
      ['without names the id alone does not match prod', undefined, /^ALLOW/],
      [
        'the id of prod is denied by name',
        { [id]: { name: 'prod' } },
        new RegExp(
          `^DENY \\(HTTP 403\\)\\nmessage: Denied by 1 policy: \\[block-prod\\] environment prod \\(${id}\\) is blocked`,
        ),
      ],
      [
        'a name that cannot be known cannot decide',
        { [id]: { unknown: 'the platform is down' } },
        new RegExp(`\\[block-prod\\] cannot decide whether environment ${id} is blocked: the platform is down`),
      ],
    ])('%s', (_name, names, out) => {
      const args = [
        'eval',
        '--payload',
        byId,
        '--dir',
        dir,
        ...(names ? ['--environments', payloadFile('names.json', names)] : []),
      ];
      const res = runCli(args);
      expect(res.stdout).toMatch(out);
      expect(res.code).toBe(0);
    });
    it.each([
      ['a bare name', { [id]: 'prod' }, `${id}: must be object`],
      ['an empty name', { [id]: { name: '' } }, `${id}`],
    ])('refuses malformed names (%s) with exit 2, naming the path', (_name, names, message) => {
      const res = runCli([
        'eval',
        '--payload',
        byId,
        '--dir',
        dir,
        '--environments',
        payloadFile('bad-names.json', names),
      ]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('is not valid environment names');
      expect(res.stderr).toContain(message);
    });
  });

  it('reads the payload from stdin with --payload -', () => {
    const res = runCli(['eval', '--payload', '-', '--dir', dir], { input: JSON.stringify(runIn('prod')) });
    expect(res.stdout).toMatch(/^DENY \(HTTP 403\)/);
  });

  it('uses POLICY_DIR when --dir is not given', () => {
    const res = runCli(['eval', '--payload', prod], { env: { POLICY_DIR: dir } });
    expect(res.stdout).toMatch(/^DENY/);
    // The bundled ./policies (the default, the cwd is the repo) deny this run too: only the
    // policy of POLICY_DIR names block-prod, and the bundled deniers must not appear.
    expect(res.stdout).toMatch(
      /^DENY \(HTTP 403\)\nmessage: Denied by 1 policy: \[block-prod\] environment prod is blocked /,
    );
    expect(res.stdout).not.toContain('blast-radius-caps');
  });

  it.each([
    [
      'a payload file that does not exist',
      ['--payload', '/nonexistent.json'],
      /cannot read payload \/nonexistent\.json: no such file/,
    ],
    [
      'a payload that is not JSON',
      ['--payload', payloadFile('bad.json', '{"event": ')],
      /^preflight-gate: \S*bad\.json:1:11: payload is not valid JSON: a value was expected\n$/,
    ],
    // V8's message quoted the text with its raw line breaks and, for a stray token, no position.
    [
      'a state file that is not JSON, on one line with file:line:col',
      [
        '--payload',
        prod,
        '--state',
        payloadFile('broken-state.json', '{\n  "emergencyStop": {\n    "engaged": tru\n  }\n}\n'),
      ],
      /^preflight-gate: \S*broken-state\.json:3:16: state file is not valid JSON: unexpected "t"\n$/,
    ],
    [
      'a state file with a trailing comma',
      ['--payload', prod, '--state', payloadFile('comma.json', '{\n  "running": {},\n}\n')],
      /^preflight-gate: \S*comma\.json:3:1: state file is not valid JSON: a property name in double quotes was expected\n$/,
    ],
    [
      'a payload the service would reject',
      ['--payload', payloadFile('ks.json', { event: 'experiment.execution.preflight' })],
      /invalid preflight payload \(the service would answer 400\): execution is required/,
    ],
    ['a missing --payload', [], /required option '--payload <file>' not specified/],
    ['a bad --now', ['--payload', prod, '--now', 'tomorrow'], /--now must be an ISO 8601 time/],
    [
      'an invalid policy set',
      ['--payload', prod, '--dir', tempDir({ 'x.yaml': 'kind: Nope\n' }).dir],
      /the policy set in .* is invalid, so nothing can be evaluated[\s\S]*x\.yaml:1:\d+ kind: kind must be one of/,
    ],
  ])('rejects %s on stderr with exit 2', (_name, args, message) => {
    const res = runCli(['eval', '--dir', dir, ...args]);
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(res.code).toBe(2);
  });
});

describe('eval and an exception with maxUses (docs/approvals.md section 4)', () => {
  const NOW = '2026-03-02T10:00:00Z';
  const { dir, cleanup } = tempDir({
    'block-prod.yaml': BLOCK_PROD,
    'once.yaml':
      'kind: Exception\nname: once\npolicy: block-prod\nowner: jane\nreason: game day\nexpires: "2026-03-02T12:00:00Z"\nmaxUses: 1\nmatch: { experimentKeys: [SHOP-1] }\n',
  });
  afterAll(cleanup);
  const write = (name: string, body: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, JSON.stringify(body));
    return file;
  };

  it('the help says what eval decides without --state, and how to decide as the in-memory service', () => {
    const help = runCli(['eval', '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toContain(
      'without, those of a freshly started service that counts exception uses (Redis or EXCEPTION_USES_FILE): an exception with maxUses waives its first use',
    );
    expect(help).toContain('As the in-memory service decides: {"exceptionUsesUnknown": "kept in memory only"}');
  });

  it('without --state the exception waives (use 1 of 1); with the in-memory fact it does not', () => {
    const payload = write('prod.json', runIn('prod'));
    const counted = runCli(['eval', '--payload', payload, '--dir', dir, '--now', NOW, '--explain']);
    expect(counted.stdout).toMatch(/^ALLOW \(HTTP 200\)/);
    expect(counted.stdout).toContain('use 1 of 1: game day');
    const state = write('memory.json', { exceptionUsesUnknown: 'kept in memory only' });
    const memory = runCli(['eval', '--payload', payload, '--dir', dir, '--now', NOW, '--state', state]);
    expect(memory.stdout).toMatch(/^DENY \(HTTP 403\)/);
    expect(memory.stdout).toContain('cannot tell how often exception "once" was used (kept in memory only)');
  });
});
