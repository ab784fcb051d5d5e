import { createHmac } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { editorSchema } from '../../src/policy/compile/document-schema';
import { suiteSchema } from '../../src/cli/suite/suite-schema';
import { factsSchema, stateFactsSchema } from '../../src/policy/facts/facts-schema';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { post } from '../reload/post';
import { BLOCK_PROD, CLI, runCli, runIn, tempDir } from './run-cli';

const SECRET = 'correct horse battery staple';
const hmac = (secret: string, bytes: string | Buffer) =>
  `hmac-sha256 ${createHmac('sha256', secret).update(bytes).digest('hex')}`;

describe('preflight-gate sign', () => {
  const { dir, cleanup } = tempDir({ 'payload.json': '{"event":"experiment.execution.preflight"}\n' });
  const file = join(dir, 'payload.json');
  afterAll(cleanup);

  it.each([
    ['a file, with --secret', ['sign', '--secret', SECRET, file], {}, ''],
    ['a file, with --secret-env', ['sign', '--secret-env', 'MY_SECRET', file], { MY_SECRET: SECRET }, ''],
    ['stdin', ['sign', '--secret', SECRET], {}, '{"event":"experiment.execution.preflight"}\n'],
  ])('prints hmac-sha256 <hex> over the exact bytes of %s', (_name, args, env, input) => {
    const res = runCli(args, { env, input });
    expect(res.stdout).toBe(`${hmac(SECRET, '{"event":"experiment.execution.preflight"}\n')}\n`);
    expect(res.code).toBe(0);
  });

  it('signs the bytes as given: a missing trailing newline changes the signature', () => {
    const res = runCli(['sign', '--secret', SECRET], { input: '{"event":"experiment.execution.preflight"}' });
    expect(res.stdout).toBe(`${hmac(SECRET, '{"event":"experiment.execution.preflight"}')}\n`);
  });

  it.each([
    ['no secret', ['sign', file], {}, /give the webhook secret: --secret-env NAME/],
    [
      'an unset --secret-env variable',
      ['sign', '--secret-env', 'NOT_SET', file],
      {},
      /environment variable NOT_SET \(from --secret-env\) is not set or empty/,
    ],
    [
      'both --secret and --secret-env',
      ['sign', '--secret', 'a', '--secret-env', 'B', file],
      { B: 'b' },
      /give --secret or --secret-env, not both/,
    ],
    [
      'a file that does not exist',
      ['sign', '--secret', 'a', '/nonexistent.json'],
      {},
      /cannot read payload \/nonexistent\.json: no such file/,
    ],
    ['--secret without its value', ['sign', '--secret'], {}, /option '--secret <secret>' argument missing/],
  ])('rejects %s with exit 2', (_name, args, env, message) => {
    const res = runCli(args, { env });
    expect(res.stderr).toMatch(message);
    expect(res.stdout).toBe('');
    expect(res.code).toBe(2);
  });

  describe('against the running service', () => {
    let server: ServerProcess;
    const policies = tempDir({ 'block-prod.yaml': BLOCK_PROD });
    beforeAll(async () => {
      server = await startServerProcess({ WEBHOOK_SECRET: SECRET, POLICY_DIR: policies.dir, POLICY_WATCH: 'false' });
    });
    afterAll(async () => {
      await server.stop();
      policies.cleanup();
    });

    it.each([
      ['the right secret is decided on (403: prod is blocked)', SECRET, 403],
      ['another secret is refused (401)', 'wrong secret', 401],
    ])('a request signed by the CLI with %s', async (_name, secret, status) => {
      const body = JSON.stringify(runIn('prod'));
      const payload = join(dir, 'prod.json');
      writeFileSync(payload, body);
      const signature = runCli(['sign', '--secret', secret, payload]).stdout.trim();
      const res = await post(`${server.url}/preflight`, body, { 'x-sb-signature': signature });
      expect(res.status).toBe(status);
    });
  });
});

describe('preflight-gate schema', () => {
  it.each([
    ['the policy document schema', [], editorSchema()],
    ['the test suite schema with --test-suite', ['--test-suite'], suiteSchema],
    ['the state facts schema with --state', ['--state'], stateFactsSchema],
    ['the facts schema with --facts', ['--facts'], factsSchema],
  ])('prints %s as JSON', (_name, args, schema) => {
    const res = runCli(['schema', ...args]);
    expect(JSON.parse(res.stdout)).toEqual(JSON.parse(JSON.stringify(schema)));
    expect(res.code).toBe(0);
  });
});

describe('preflight-gate serve', () => {
  it('runs the service on the policies of --dir, like npm start', async () => {
    const { dir, cleanup } = tempDir({ 'block-prod.yaml': BLOCK_PROD });
    const server = await startServerProcess({ POLICY_WATCH: 'false' }, { args: [CLI, 'serve', '--dir', dir] });
    try {
      const ready = await (await fetch(`${server.url}/readyz`)).json();
      expect(ready).toMatchObject({ status: 'ready', policies: 2, builtInPolicies: ['emergency-stop (built-in)'] });
      const res = await post(`${server.url}/preflight`, JSON.stringify(runIn('prod')));
      expect(res.status).toBe(403);
    } finally {
      expect(await server.stop()).toBe(0);
      cleanup();
    }
  });

  it('exits 1 naming file and line when the policy set is invalid', async () => {
    const { dir, cleanup } = tempDir({ 'bad.yaml': 'kind: Policy\nname: Bad Name\nrules: []\n' });
    const server = await startServerProcess({}, { args: [CLI, 'serve', '--dir', dir], waitReady: false });
    try {
      expect(await server.exited).toBe(1);
      expect(server.output()).toMatch(/preflight-gate: invalid policy set:\n.*bad\.yaml:2:7 name: /);
    } finally {
      cleanup();
    }
  });
});
