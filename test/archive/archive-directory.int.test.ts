import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { preflightPayload } from '../helpers/fixtures';
import { startServerProcess } from '../helpers/server-process';

/** DECISION_ARCHIVE naming a directory that is not there yet: the built service, as `npm start` runs it. */
const SECRET = 'archive-dir-secret';
let root: string;
beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'archive-dir-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

async function decideOnce(env: Record<string, string>): Promise<void> {
  const proc = await startServerProcess({ WEBHOOK_SECRET: SECRET, ...env });
  const res = await signedPost(`${proc.url}/preflight`, preflightPayload(), SECRET);
  expect(res.status).toBeLessThan(500);
  expect(await proc.stop()).toBe(0); // SIGTERM writes what is queued
}

const records = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as { format: number });

test('a directory that does not exist yet (trailing /) is created with its parents, and decisions are written there', async () => {
  const dir = join(root, 'volume', 'not', 'yet');
  await decideOnce({ DECISION_ARCHIVE: `${dir}/` });
  const files = readdirSync(dir);
  expect(files).toEqual([expect.stringMatching(/^decisions-.+\.jsonl$/)]);
  expect(records(join(dir, files[0]))).toEqual([expect.objectContaining({ format: 1 })]);
});

test('a file path whose directory does not exist yet gets its directory', async () => {
  const file = join(root, 'fresh', 'decisions.jsonl');
  await decideOnce({ DECISION_ARCHIVE: file });
  expect(records(file)).toHaveLength(1);
});

test('a directory that cannot be created stops start-up with a message naming DECISION_ARCHIVE', async () => {
  writeFileSync(join(root, 'a-file'), 'not a directory\n');
  const proc = await startServerProcess(
    { WEBHOOK_SECRET: SECRET, DECISION_ARCHIVE: `${join(root, 'a-file', 'decisions')}/` },
    { waitReady: false },
  );
  const code = await Promise.race([
    proc.exited,
    new Promise((resolve) => setTimeout(resolve, 20_000, 'still running after 20 s')),
  ]);
  await proc.stop('SIGKILL');
  expect(code).toBe(1);
  expect(proc.output()).toContain(
    `preflight-gate: DECISION_ARCHIVE: the archive directory ${join(root, 'a-file', 'decisions')} cannot be created or written (a part of it is a file, not a directory); mount a writable volume there or name another path`,
  );
  expect(proc.output()).not.toMatch(/"message":"listening"/);
});
