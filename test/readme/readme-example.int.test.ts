import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { runAsync } from '../helpers/run-async';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { decide } from '../../src/policy/engine/decide';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { preflightWith } from '../helpers/fixtures';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');

/** The fenced block right after `<!-- readme-example: NAME -->`, as written. */
function readmeBlock(name: string): string {
  const marker = `<!-- readme-example: ${name} -->`;
  const at = README.indexOf(marker);
  if (at < 0) throw new Error(`README.md has no ${marker}`);
  const match = /^\s*```sh\n([\s\S]*?)\n```/.exec(README.slice(at + marker.length));
  if (!match) throw new Error(`no \`\`\`sh block right after ${marker}`);
  return match[1];
}

/** Runs a script with bash at the repository root; only PORT is set from outside. */
const runBash = (script: string, port: number) =>
  runAsync('bash', ['-c', script], { env: { PATH: process.env.PATH, PORT: String(port) } });

/**
 * During a change freeze of the bundled calendar (or a Friday afternoon, Berlin time) the bundled
 * change-freeze-calendar policy denies the payments-prod run too, as the README says under the
 * example. Only then, and only when the engine agrees that the freeze holds right now, its part of
 * the message is taken out to compare the rest with what the README prints.
 */
function withoutFreeze(stdout: string): string {
  const freeze =
    /Denied by 2 policies: (\[blocked-environments\] .*?) \| \[change-freeze-calendar\] .*?(?= \(decision )/;
  if (!freeze.test(stdout)) return stdout;
  const loaded = loadPolicyDir(join(ROOT, 'policies'));
  if (!loaded.ok) throw new Error('policies/ does not load');
  const payload = preflightWith((p) => {
    p.execution.environment = 'payments-prod';
  });
  const decision = decide(loaded.bundle, payload, {}, new Date(), { decisionId: 'd' });
  expect(decision.results.find((r) => r.policy === 'change-freeze-calendar')?.result).toBe('deny');
  return stdout.replace(freeze, (_m, blocked: string) => `Denied by 1 policy: ${blocked}`);
}

describe('README example: sign a payload with openssl, post it with curl', () => {
  let server: ServerProcess;
  afterAll(async () => {
    await server?.stop();
  });

  const example = readmeBlock('sign-and-post');

  test('the example uses the port from PORT and the secret the README starts the service with', () => {
    expect(example).toMatch(/^PORT=\$\{PORT:-8080\}$/m);
    const started = /^WEBHOOK_SECRET=(\S+) npm start$/m.exec(README);
    expect(started).not.toBeNull();
    expect(example).toMatch(new RegExp(`^SECRET=${started?.[1]}\\b`, 'm'));
  });

  test('run as written against the service on the bundled policies: the spec example is allowed, payments-prod denied', async () => {
    const secret = /^WEBHOOK_SECRET=(\S+) npm start$/m.exec(README)?.[1] ?? 'missing-from-readme';
    server = await startServerProcess({ WEBHOOK_SECRET: secret });
    const { status, stdout, stderr } = await runBash(example, server.port);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    // Exactly what the README says it prints, but for the decision ids and the revision it shortens.
    const printed = /^It prints[^\n]*:\n\n```text\n([\s\S]*?)\n```/m.exec(README)?.[1] ?? 'missing from the README';
    const shortened = withoutFreeze(stdout)
      .replace(/decision [0-9a-f-]{36}/g, (m) => `${m.slice(0, 'decision '.length + 4)}…`)
      .replace(/policy revision ([0-9a-f]{4})[0-9a-f]{8}/g, 'policy revision $1…');
    expect(shortened.replace(/decision [0-9a-f]{4}…/g, 'decision <id>')).toBe(
      `${printed.replace(/decision [0-9a-f]{4}…/g, 'decision <id>')}\n`,
    );
    const [allowBody, allowStatus, denyBody, denyStatus, ...rest] = stdout.split('\n');
    expect(rest).toEqual(['']);
    expect(allowStatus).toBe('HTTP 200');
    expect(JSON.parse(allowBody)).toEqual({
      message: expect.stringMatching(/^Allowed: /),
      modifications: expect.any(Array),
    });
    expect(denyStatus).toBe('HTTP 403');
    expect(JSON.parse(denyBody)).toEqual({
      message: expect.stringMatching(
        /^Denied by \d+ polic(y|ies): .*\[blocked-environments\] environment payments-prod is blocked: chaos experiments are not allowed there \(experiment ADM-1, team ADM\)/,
      ),
    });
  });
});

describe('README set-up commands', () => {
  test('the first block holds the two commands: install and start, and the tests', () => {
    expect(README).toMatch(/^# preflight-gate\n\n```sh\nnpm ci && npm start +# [^\n]+\nnpm test +# [^\n]+\n```\n/);
  });

  test('.ci/run installs with npm ci and runs the README test command', () => {
    const ci = readFileSync(join(ROOT, '.ci', 'run'), 'utf8');
    expect(ci).toMatch(/^npm ci\b/m);
    expect(ci).toMatch(/^npm test$/m);
  });
});
