import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../helpers/server-process';

/** Starts the built service (`node dist/main.js`) and resolves with its exit code and output. */
async function startAndExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const proc = await startServerProcess(env, { waitReady: false });
  const code = await proc.exited;
  return { code, output: proc.output() };
}

const dirs: string[] = [];
function policyDir(files: Record<string, string>): string {
  const dir = mkdtempSync(join(tmpdir(), 'preflight-gate-startup-'));
  dirs.push(dir);
  for (const [name, text] of Object.entries(files)) writeFileSync(join(dir, name), text);
  return dir;
}
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

const good = 'kind: Policy\nname: blocked\nrules:\n  - environments: { blocked: [payments-prod] }\n';

describe('start-up with a broken policy set exits non-zero naming file and line', () => {
  test.each<[string, string, RegExp]>([
    [
      'a YAML syntax error',
      'kind: Policy\nname: broken\nrules:\n  - environments: { blocked: [a, b }\n',
      /broken\.yaml:4:\d+ YAML syntax error/,
    ],
    [
      'a schema error (misspelt key)',
      'kind: Policy\nname: broken\nrules:\n  - environments:\n      blockd: [a]\n',
      /broken\.yaml:5:\d+ rules\[0\]\.environments\.blockd: blockd is not a known field/,
    ],
    ['an unknown document kind', 'kind: Polcy\nname: broken\n', /broken\.yaml:1:\d+ .*kind/],
  ])('%s', async (_name, text, problem) => {
    const dir = policyDir({ 'good.yaml': good, 'broken.yaml': text });
    const { code, output } = await startAndExit({ POLICY_DIR: dir });
    expect(code).toBe(1);
    expect(output).toContain(`preflight-gate: invalid policy set:\n${join(dir, 'broken.yaml')}:`);
    expect(output).toMatch(problem);
    expect(output).not.toMatch(/"message":"listening"/);
  });

  test('a policy saved under a suite name and a broken file: both are named, as validate names them', async () => {
    const broken = 'kind: Policy\nname: broken\nrules:\n  - environments:\n      blockd: [a]\n';
    const dir = policyDir({ 'good.yaml': good, 'broken.yaml': broken, 'prod.test.yaml': good });
    const { code, output } = await startAndExit({ POLICY_DIR: dir });
    expect(code).toBe(1);
    expect(output).toContain(
      `preflight-gate: invalid policy set:\n${join(dir, 'prod.test.yaml')}:1:1 prod.test.yaml holds kind: Policy, but *.test.yaml files are test suites and are never loaded as policies: rename it (e.g. prod.yaml)\n${join(dir, 'broken.yaml')}:5:7 rules[0].environments.blockd: blockd is not a known field`,
    );
  });

  test('a policy directory that does not exist is named', async () => {
    const { code, output } = await startAndExit({ POLICY_DIR: '/nonexistent/preflight-gate-policies' });
    expect(code).toBe(1);
    expect(output).toMatch(/\/nonexistent\/preflight-gate-policies:1:1 cannot read the policy directory/);
  });
});

describe('start-up with invalid configuration exits non-zero naming the variable', () => {
  test.each<[string, Record<string, string>, string]>([
    ['PORT that is not a number', { PORT: 'abc' }, 'PORT must be a whole number from 0 to 65535, got "abc"'],
    ['PORT out of range', { PORT: '70000' }, 'PORT must be a whole number from 0 to 65535, got "70000"'],
    [
      'WEBHOOK_SECRET with an empty entry',
      { WEBHOOK_SECRET: 'first-secret,,third-secret' },
      'WEBHOOK_SECRET holds an empty secret',
    ],
    ['WEBHOOK_SECRET set but empty', { WEBHOOK_SECRET: '' }, 'WEBHOOK_SECRET holds an empty secret'],
    [
      'BODY_LIMIT that is not a size',
      { BODY_LIMIT: 'lots' },
      'BODY_LIMIT must be bytes or a size such as 512kb or 1mb, got "lots"',
    ],
    ['LOG_LEVEL that does not exist', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [
      'SHUTDOWN_TIMEOUT_MS that is negative',
      { SHUTDOWN_TIMEOUT_MS: '-1' },
      'SHUTDOWN_TIMEOUT_MS must be a whole number',
    ],
  ])('%s', async (_name, env, message) => {
    const { code, output } = await startAndExit(env);
    expect(code).toBe(1);
    expect(output).toContain(`preflight-gate: ${message}`);
  });

  test('the error never repeats a secret', async () => {
    const { code, output } = await startAndExit({ WEBHOOK_SECRET: 'do-not-print-me-4711, ' });
    expect(code).toBe(1);
    expect(output).toContain('WEBHOOK_SECRET holds an empty secret');
    expect(output).not.toContain('do-not-print-me-4711');
  });
});
