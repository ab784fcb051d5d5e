import { spawn, spawnSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, ROOT, waitFor } from '../helpers/server-process';

/** The CLI section moved from the README to docs/policy-workflow.md (the README links to it). */
const DOC = readFileSync(join(ROOT, 'docs', 'policy-workflow.md'), 'utf8');

/** The commands of the first ```sh block of docs/policy-workflow.md, comments cut off. */
function cliCommands(): string[] {
  const start = DOC.indexOf('# Policy-as-code workflow');
  if (start !== 0) throw new Error('docs/policy-workflow.md does not start with "# Policy-as-code workflow"');
  const open = DOC.indexOf('```sh\n', start) + '```sh\n'.length;
  const block = DOC.slice(open, DOC.indexOf('\n```', open));
  return block
    .split('\n')
    .map((line) => line.replace(/\s+#.*$/, '').trim())
    .filter(Boolean);
}

/**
 * Every command of the CLI section (docs/policy-workflow.md), run as written in a copy of a clean clone's files: the
 * install line (`npm link`) into a private prefix, offline (the clone's node_modules and dist/ are
 * this repository's, built by `npm test`), then each command with that prefix on the PATH.
 */
describe('the CLI section of docs/policy-workflow.md runs as written from a clone', () => {
  const commands = cliCommands();
  const work = mkdtempSync(join(tmpdir(), 'preflight-readme-cli-'));
  const prefix = join(work, '.npm-global');
  const env = {
    PATH: `${join(prefix, 'bin')}:${process.env.PATH}`,
    HOME: process.env.HOME ?? '/root',
    npm_config_prefix: prefix,
    npm_config_offline: 'true',
    npm_config_ignore_scripts: 'true',
    npm_config_update_notifier: 'false',
    WEBHOOK_SECRET: 'change-me',
  };
  const bash = (command: string, cwd: string) =>
    spawnSync('bash', ['--noprofile', '--norc', '-c', command], { cwd, env, encoding: 'utf8', timeout: 60000 });

  beforeAll(() => {
    cpSync(join(ROOT, 'policies'), join(work, 'policies'), { recursive: true });
    const install = commands[0];
    expect(install).toBe('npm ci && npm link');
    // npm ci would replace this repository's node_modules; everything after it runs as written.
    const linked = bash(install.replace(/^npm ci && /, ''), ROOT);
    if (linked.status !== 0) throw new Error(`npm link failed:\n${linked.stderr}`);
  }, 60000);
  afterAll(() => rmSync(work, { recursive: true, force: true }));

  test('every file the commands read is in a clone (run.json at the root was not)', () => {
    const read = commands.flatMap((c) => [...c.matchAll(/(?<!> )(?<![\w/.-])([\w/.-]+\.json)\b/g)].map((m) => m[1]));
    expect(read.length).toBeGreaterThan(0);
    expect(read.filter((file) => !existsSync(join(work, file)))).toEqual([]);
  });

  // Runs first: the replay line after it reads the decisions this service records.
  test('serve: the service on the bundled policies answers a signed run and records it, until SIGTERM', async () => {
    const serve = commands.find((c) => /\bpreflight-gate serve\b/.test(c));
    expect(serve).toBeDefined();
    const port = await freePort();
    const child = spawn(
      'bash',
      ['--noprofile', '--norc', '-c', (serve as string).replace('preflight-gate serve', 'exec preflight-gate serve')],
      { cwd: work, env: { ...env, PORT: String(port) }, stdio: 'ignore' },
    );
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    await waitFor(
      async () => (await fetch(`http://127.0.0.1:${port}/readyz`).catch(() => undefined))?.status === 200,
      'serve to be ready',
    );
    const body = readFileSync(join(work, 'policies', 'testdata', 'run.json'));
    const signature = `hmac-sha256 ${createHmac('sha256', env.WEBHOOK_SECRET).update(body).digest('hex')}`;
    const answer = await fetch(`http://127.0.0.1:${port}/preflight`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'x-sb-signature': signature },
    });
    expect([200, 403]).toContain(answer.status);
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
  });

  test.each(commands.slice(1).filter((c) => !/\bpreflight-gate serve\b/.test(c)))('%s', (command) => {
    const res = bash(command, work);
    expect(res.stderr.replace(/npm warn.*\n/g, '')).toBe('');
    expect(res.status).toBe(0);
  });
});
