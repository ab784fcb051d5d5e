import { execFile } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { commentMarker } from '../../src/github/pull-request-comment';
import { startFakeGitHub, someComment, type FakeGitHub } from '../helpers/fake-github';
import { CLI, tempDir, type CliResult } from './run-cli';

const TOKEN = 'ghs_test-token';
const REPO = 'acme/policies';
let github: FakeGitHub;
let dir: string;
let env: Record<string, string>;

/** The built CLI, run without blocking this process (the fake GitHub answers from it). */
function cli(args: string[], extra: Record<string, string | undefined> = {}): Promise<CliResult> {
  return new Promise((resolve) => {
    const child = execFile(
      process.execPath,
      [CLI, ...args],
      { env: { PATH: process.env.PATH, ...env, ...extra } as NodeJS.ProcessEnv, timeout: 20_000 },
      (_err, stdout, stderr) => {
        resolve({ code: child.exitCode, stdout, stderr });
      },
    );
  });
}

beforeEach(async () => {
  github = await startFakeGitHub({ token: TOKEN, repository: REPO });
  dir = tempDir({
    'report.md': '### preflight-gate replay: 2 archived runs would be decided differently\n',
    'second.md': '### preflight-gate replay: no archived run would be decided differently\n',
    'event.json': JSON.stringify({ action: 'synchronize', number: 42, pull_request: { number: 42 } }),
  }).dir;
  env = {
    GITHUB_TOKEN: TOKEN,
    GITHUB_REPOSITORY: REPO,
    GITHUB_API_URL: github.url,
    GITHUB_EVENT_PATH: join(dir, 'event.json'),
  };
});
afterEach(() => github.close());

const MARKER = commentMarker('replay');

test('posts the report once, then edits that comment on the next push instead of adding another', async () => {
  github.comments.set(42, [
    someComment(1, 'LGTM'),
    someComment(2, `> ${MARKER}\nquoted by a person`),
    someComment(3, '<!-- preflight-gate: replay other-dir -->\nanother report'),
  ]);
  const first = await cli(['pr-comment', '--body-file', join(dir, 'report.md')]);
  expect(first).toMatchObject({ code: 0, stderr: '' });
  expect(first.stdout).toMatch(/^created https:\/\/github\.example\/acme\/policies\/pull\/42#issuecomment-\d+\n$/);
  const second = await cli(['pr-comment', '--body-file', join(dir, 'second.md')]);
  expect(second.stdout).toMatch(/^updated /);
  const comments = github.comments.get(42) ?? [];
  expect(comments.map((c) => c.body)).toEqual([
    'LGTM',
    `> ${MARKER}\nquoted by a person`,
    '<!-- preflight-gate: replay other-dir -->\nanother report',
    `${MARKER}\n### preflight-gate replay: no archived run would be decided differently\n`,
  ]);
  expect(github.requests.map((r) => r.method)).toEqual(['GET', 'POST', 'GET', 'PATCH']);
});

test('finds its comment on a later page of a long discussion (Link rel="next")', async () => {
  github.comments.set(42, [
    ...Array.from({ length: 230 }, (_, i) => someComment(i + 1, `comment ${i}`)),
    someComment(999, `${MARKER}\nold report`, 'github-actions[bot]'),
  ]);
  const res = await cli(['pr-comment', '--body-file', join(dir, 'report.md')]);
  expect(res.stdout).toBe('updated https://github.example/c/999\n');
  expect(github.requests.filter((r) => r.method === 'GET').map((r) => r.path)).toEqual([
    `/repos/${REPO}/issues/42/comments?per_page=100`,
    `/repos/${REPO}/issues/42/comments?per_page=100&page=2`,
    `/repos/${REPO}/issues/42/comments?per_page=100&page=3`,
  ]);
  expect(github.comments.get(42)?.at(-1)?.body).toContain('2 archived runs would be decided differently');
});

test('--key keeps two reports on one pull request apart; --pull-request works without an event', async () => {
  await cli(['pr-comment', '--body-file', join(dir, 'report.md'), '--key', 'replay services', '--pull-request', '7'], {
    GITHUB_EVENT_PATH: undefined,
  });
  await cli(['pr-comment', '--body-file', join(dir, 'report.md'), '--key', 'replay platform', '--pull-request', '7'], {
    GITHUB_EVENT_PATH: undefined,
  });
  expect(github.comments.get(7)?.map((c) => c.body.split('\n')[0])).toEqual([
    '<!-- preflight-gate: replay services -->',
    '<!-- preflight-gate: replay platform -->',
  ]);
});

test("a token that may not write (a fork's pull request) fails with GitHub's reason and what to do", async () => {
  github.refuseWrites = 403;
  const res = await cli(['pr-comment', '--body-file', join(dir, 'report.md')]);
  expect(res.code).toBe(1);
  expect(res.stderr).toBe(
    'preflight-gate: GitHub answered 403 to commenting on pull request #42: Resource not accessible by integration (the token may not write to pull requests: give the job `permissions: pull-requests: write`; a pull request from a fork gets a read-only token)\n',
  );
});

test.each<[string, Record<string, string | undefined>, string[], string]>([
  ['no token', { GITHUB_TOKEN: undefined }, [], 'no GitHub token: set GITHUB_TOKEN'],
  [
    'a wrong token',
    { GITHUB_TOKEN: 'nope' },
    [],
    'GitHub answered 401 to listing the comments of pull request #42: Bad credentials',
  ],
  ['no repository', { GITHUB_REPOSITORY: undefined }, [], 'GITHUB_REPOSITORY must be owner/name'],
  ['not a pull request event', { GITHUB_EVENT_PATH: undefined }, [], 'no pull request: run on a pull_request event'],
  ['a push event', {}, ['--body-file', 'push'], 'no pull request'],
  ['an empty report', {}, ['--body-file', 'empty.md'], 'is empty'],
])('%s: a clear error, nothing posted', async (_name, extra, args, message) => {
  writeFileSync(join(dir, 'push.json'), JSON.stringify({ ref: 'refs/heads/main' }));
  writeFileSync(join(dir, 'empty.md'), '\n');
  const body =
    args[1] === 'push'
      ? ['--body-file', join(dir, 'report.md')]
      : args.length > 0
        ? ['--body-file', join(dir, args[1])]
        : ['--body-file', join(dir, 'report.md')];
  const res = await cli(
    ['pr-comment', ...body],
    args[1] === 'push' ? { GITHUB_EVENT_PATH: join(dir, 'push.json') } : extra,
  );
  expect(res.code).not.toBe(0);
  expect(res.stderr).toContain(message);
  expect(github.requests.filter((r) => r.method !== 'GET')).toEqual([]);
});
