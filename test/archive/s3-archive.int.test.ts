import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CreateBucketCommand, GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import S3rver from 's3rver';
import { parseArchiveConfig } from '../../src/archive/archive-config';
import { createS3Client } from '../../src/archive/s3-client';
import { SpoolUploader } from '../../src/archive/spool-uploader';
import { spooledWriter, SpoolFullError } from '../../src/archive/spooled-writer';
import { createLogger } from '../../src/common/logger';
import { signedPost } from '../helpers/signed-post';
import { execFile } from 'node:child_process';
import { CLI, runIn, tempDirs, BLOCK_PROD } from '../cli/run-cli';
import { freePort, startServerProcess } from '../helpers/server-process';

/** s3rver's built-in account: the SDK finds it through its standard chain (the environment provider). */
const CREDENTIALS = {
  AWS_ACCESS_KEY_ID: 'S3RVER',
  AWS_SECRET_ACCESS_KEY: 'S3RVER',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};
const BUCKET = 'decisions';
const SECRET = 's3-secret';

const dirs = tempDirs();
let s3: S3rver | undefined;
let endpoint = '';
let s3Dir = '';

/** A local S3-compatible server (s3rver) on 127.0.0.1, with the bucket, on `port` (default: a free one). */
async function startS3(port = 0): Promise<void> {
  s3Dir ||= mkdtempSync(join(tmpdir(), 's3rver-'));
  s3 = new S3rver({ port, address: '127.0.0.1', silent: true, directory: s3Dir });
  const address = await s3.run();
  endpoint = `http://127.0.0.1:${address.port}`;
  await client()
    .send(new CreateBucketCommand({ Bucket: BUCKET }))
    .catch((err: { name?: string }) => {
      if (err.name !== 'BucketAlreadyExists' && err.name !== 'BucketAlreadyOwnedByYou') throw err;
    });
}
async function stopS3(): Promise<void> {
  await s3?.close();
  s3 = undefined;
}
const client = () =>
  new S3Client({
    endpoint,
    region: 'us-east-1',
    forcePathStyle: true,
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
  });
async function keys(prefix: string): Promise<string[]> {
  const page = await client().send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: prefix }));
  return (page.Contents ?? []).map((o) => o.Key as string).sort();
}

/** The CLI in a child process, asynchronously: the S3 server answers from this process meanwhile. */
function runCliAsync(
  args: string[],
  env: Record<string, string>,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [CLI, ...args],
      {
        env: { PATH: process.env.PATH, AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true', ...env },
        timeout: 20_000,
      },
      (err, stdout, stderr) => {
        resolve({ code: err ? Number((err as { code?: unknown }).code ?? 1) : 0, stdout, stderr });
      },
    );
  });
}

beforeAll(() => {
  Object.assign(process.env, CREDENTIALS);
});
afterAll(() => {
  for (const k of Object.keys(CREDENTIALS)) delete process.env[k];
  if (s3Dir) rmSync(s3Dir, { recursive: true, force: true });
});
afterEach(stopS3);

test('DECISION_ARCHIVE=s3://bucket/prefix: closed files are uploaded, SIGTERM closes and uploads the open one, and replay reads the bucket directly', async () => {
  await startS3();
  const spool = dirs({});
  const policies = dirs({ 'block.yaml': BLOCK_PROD });
  const gate = await startServerProcess({
    ...CREDENTIALS,
    AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    WEBHOOK_SECRET: SECRET,
    POLICY_DIR: policies,
    AUDIT_LOG: 'off',
    DECISION_ARCHIVE: `s3://${BUCKET}/gate/eu-1`,
    DECISION_ARCHIVE_S3_ENDPOINT: endpoint,
    DECISION_ARCHIVE_SPOOL_DIR: spool,
    DECISION_ARCHIVE_MAX_BYTES: '4kb',
    DECISION_ARCHIVE_SPOOL_MAX_BYTES: '1mb',
  });
  const statuses: number[] = [];
  for (let i = 0; i < 12; i++) {
    const res = await signedPost(`${gate.url}/preflight`, runIn(i % 3 === 0 ? 'prod' : 'staging'), SECRET);
    statuses.push(res.status);
  }
  expect(await gate.stop('SIGTERM')).toBe(0);
  const uploaded = await keys('gate/eu-1/');
  // Several files closed by size while running, then the open one at SIGTERM; the spool is empty.
  expect(uploaded.length).toBeGreaterThan(1);
  expect(uploaded.every((k) => /^gate\/eu-1\/decisions-[^/]+-\d{8}T\d{9}Z(-\d+)?\.jsonl\.gz$/.test(k))).toBe(true);
  expect(readdirSync(spool)).toEqual([]);
  const replay = await runCliAsync(
    ['replay', '--archive', `s3://${BUCKET}/gate/eu-1/`, '--dir', policies, '--format', 'json'],
    { ...CREDENTIALS, DECISION_ARCHIVE_S3_ENDPOINT: endpoint },
  );
  expect(replay.stderr).toBe('');
  expect(replay.code).toBe(0);
  const report = JSON.parse(replay.stdout) as { counts: { replayed: number; unchanged: number } };
  expect(report.counts).toMatchObject({ replayed: statuses.length, unchanged: statuses.length });
});

test('a store that is down keeps the closed files in the spool; they are uploaded once it is back, oldest first', async () => {
  await startS3();
  const port = Number(new URL(endpoint).port);
  await stopS3();
  const spool = dirs({});
  const names = ['decisions-a-20260105T060000000Z.jsonl.gz', 'decisions-a-20260105T070000000Z.jsonl.gz'];
  names.forEach((n) => writeFileSync(join(spool, n), gzipSync('{"x":1}\n')));
  writeFileSync(join(spool, 'decisions-a.jsonl'), '{"open":1}\n');
  const outcomes: string[] = [];
  const uploader = new SpoolUploader({
    dir: spool,
    stem: 'decisions-a',
    location: { bucket: BUCKET, prefix: 'p/' },
    logger: createLogger('error', { silent: true }),
    client: createS3Client({ endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true }, { maxAttempts: 1 }),
    gzipping: () => false,
    observe: { upload: (o) => outcomes.push(o), spoolBytes: () => undefined },
  });
  expect(await uploader.upload()).toBe(false);
  expect(readdirSync(spool).sort()).toEqual([
    'decisions-a-20260105T060000000Z.jsonl.gz',
    'decisions-a-20260105T070000000Z.jsonl.gz',
    'decisions-a.jsonl',
  ]);
  expect(uploader.waitingBytes()).toBeGreaterThan(0);
  await startS3(port);
  expect(await uploader.close(Date.now() + 10_000)).toBe(true);
  expect(outcomes).toEqual(['failed', 'uploaded', 'uploaded']);
  expect(await keys('p/')).toEqual(names.map((n) => `p/${n}`));
  expect(readdirSync(spool)).toEqual(['decisions-a.jsonl']); // the open file is not this uploader's to send
  const body = await client().send(new GetObjectCommand({ Bucket: BUCKET, Key: `p/${names[0]}` }));
  expect(
    Buffer.from(await (body.Body as { transformToByteArray(): Promise<Uint8Array> }).transformToByteArray()),
  ).toEqual(gzipSync('{"x":1}\n'));
});

test('at shutdown a store that fails is tried again until the deadline: one back a moment later still gets every file', async () => {
  await startS3();
  const port = Number(new URL(endpoint).port);
  await stopS3();
  const spool = dirs({});
  writeFileSync(join(spool, 'decisions-b-20260105T060000000Z.jsonl.gz'), gzipSync('{"x":2}\n'));
  const outcomes: string[] = [];
  const uploader = new SpoolUploader({
    dir: spool,
    stem: 'decisions-b',
    location: { bucket: BUCKET, prefix: 'late/' },
    logger: createLogger('error', { silent: true }),
    client: createS3Client({ endpoint: `http://127.0.0.1:${port}`, forcePathStyle: true }, { maxAttempts: 1 }),
    gzipping: () => false,
    observe: { upload: (o) => outcomes.push(o), spoolBytes: () => undefined },
  });
  const closing = uploader.close(Date.now() + 15_000);
  // The store comes back after the first attempt failed.
  while (!outcomes.includes('failed')) await new Promise((r) => setTimeout(r, 20));
  await startS3(port);
  expect(await closing).toBe(true);
  expect(await keys('late/')).toEqual(['late/decisions-b-20260105T060000000Z.jsonl.gz']);
  expect(readdirSync(spool)).toEqual([]);
});

test('the spool is bounded: past DECISION_ARCHIVE_SPOOL_MAX_BYTES lines are refused with why, the waiting files kept', async () => {
  const written: string[] = [];
  let waiting = 900;
  const writer = spooledWriter({
    file: {
      write: async (c) => {
        written.push(c);
      },
      close: async () => undefined,
      openBytes: () => 50,
    },
    uploader: { waitingBytes: () => waiting, close: async () => true },
    maxBytes: 1000,
    location: { bucket: BUCKET, prefix: 'gate/' },
    spool: '/spool',
  });
  await writer.write('a'.repeat(40));
  await expect(writer.write('b'.repeat(60))).rejects.toThrow(
    new SpoolFullError(
      'the spool /spool holds 950 bytes not yet uploaded to s3://decisions/gate/ (DECISION_ARCHIVE_SPOOL_MAX_BYTES=1000); see the upload errors',
    ),
  );
  waiting = 0;
  await writer.write('c');
  expect(written).toEqual(['a'.repeat(40), 'c']);
});

test('DECISION_ARCHIVE=s3://... settings are checked: bucket, prefix, endpoint, spool bound', async () => {
  const base = { DECISION_ARCHIVE: 's3://decisions/gate/eu-1/', DECISION_ARCHIVE_SPOOL_DIR: '/spool' };
  expect(parseArchiveConfig(base, 'pod-1')).toMatchObject({
    kind: 's3',
    path: '/spool/decisions-pod-1.jsonl',
    location: { bucket: 'decisions', prefix: 'gate/eu-1/' },
    s3: { forcePathStyle: false },
    spoolMaxBytes: 256 * 1024 ** 2,
  });
  expect(parseArchiveConfig({ ...base, DECISION_ARCHIVE_S3_ENDPOINT: 'http://minio:9000' }, 'p')).toMatchObject({
    s3: { endpoint: 'http://minio:9000', forcePathStyle: true },
  });
  expect(() => parseArchiveConfig({ DECISION_ARCHIVE: 's3://De/x' })).toThrow(/"De" is not an S3 bucket name/);
  expect(() => parseArchiveConfig({ DECISION_ARCHIVE: 's3://decisions/a//b' })).toThrow(/must be plain path segments/);
  expect(() => parseArchiveConfig({ ...base, DECISION_ARCHIVE_S3_ENDPOINT: 'http://u:p@minio' })).toThrow(
    /DECISION_ARCHIVE_S3_ENDPOINT must be/,
  );
  expect(() =>
    parseArchiveConfig({ ...base, DECISION_ARCHIVE_SPOOL_MAX_BYTES: '1mb', DECISION_ARCHIVE_MAX_BYTES: '2mb' }),
  ).toThrow(/must be at least DECISION_ARCHIVE_MAX_BYTES/);
  expect(() => parseArchiveConfig({ DECISION_ARCHIVE: 'gs://decisions/x' })).toThrow(
    /a file, a directory or s3:\/\/bucket\/prefix/,
  );
});

test('replay --archive s3://... with nothing there, or a store that cannot be reached, is a usage error saying so', async () => {
  await startS3();
  const policies = dirs({ 'block.yaml': BLOCK_PROD });
  const empty = await runCliAsync(['replay', '--archive', `s3://${BUCKET}/nothing/`, '--dir', policies], {
    ...CREDENTIALS,
    DECISION_ARCHIVE_S3_ENDPOINT: endpoint,
  });
  expect([empty.code, empty.stderr.trim()]).toEqual([
    2,
    `preflight-gate: archive s3://${BUCKET}/nothing/ holds no archive files (*.jsonl, *.jsonl.gz)`,
  ]);
  const closed = `http://127.0.0.1:${await freePort()}`;
  const down = await runCliAsync(['replay', '--archive', `s3://${BUCKET}/x/`, '--dir', policies], {
    ...CREDENTIALS,
    DECISION_ARCHIVE_S3_ENDPOINT: closed,
  });
  expect(down.code).toBe(2);
  expect(down.stderr).toMatch(
    /^preflight-gate: cannot read the archive s3:\/\/decisions\/x\/: .*DECISION_ARCHIVE_S3_ENDPOINT/,
  );
});
