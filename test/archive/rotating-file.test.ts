import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { RotatingFile } from '../../src/archive/rotating-file';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'archive-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const T0 = Date.parse('2026-11-23T21:00:00.000Z');

function file(
  opts: { maxBytes?: number; maxAgeMs?: number; maxFiles?: number; clock?: () => Date; errors?: string[] } = {},
) {
  return new RotatingFile({
    path: join(dir, 'decisions.jsonl'),
    maxBytes: opts.maxBytes ?? 1024 ** 2,
    maxAgeMs: opts.maxAgeMs ?? 3_600_000,
    maxFiles: opts.maxFiles ?? 0,
    clock: opts.clock ?? (() => new Date(T0)),
    onError: (what) => opts.errors?.push(what),
  });
}

/** Every line of every file in the directory, gzipped or not, files in name order. */
function allLines(): string[] {
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const bytes = readFileSync(join(dir, name));
      return (name.endsWith('.gz') ? gunzipSync(bytes) : bytes)
        .toString('utf8')
        .split('\n')
        .filter((l) => l !== '');
    });
}

test('a file that would grow past maxBytes is closed, renamed with its closing time and gzipped', async () => {
  const f = file({ maxBytes: 25 });
  for (let i = 0; i < 5; i++) await f.write(`line ${i} ..........\n`);
  await f.close();
  const names = readdirSync(dir).sort();
  expect(names).toEqual([
    'decisions-20261123T210000000Z-1.jsonl.gz',
    'decisions-20261123T210000000Z-2.jsonl.gz',
    'decisions-20261123T210000000Z-3.jsonl.gz',
    'decisions-20261123T210000000Z.jsonl.gz',
    'decisions.jsonl',
  ]);
  expect(allLines().sort()).toEqual([0, 1, 2, 3, 4].map((i) => `line ${i} ..........`));
});

test('a file older than maxAge is closed at the next write, and by rotateIfOld when no write comes', async () => {
  let now = T0;
  const f = file({ maxAgeMs: 60_000, clock: () => new Date(now) });
  await f.write('a\n');
  now += 60_000;
  await f.write('b\n');
  expect(readFileSync(join(dir, 'decisions.jsonl'), 'utf8')).toBe('b\n');
  now += 60_000;
  await f.rotateIfOld();
  await f.close();
  expect(readdirSync(dir).sort()).toEqual([
    'decisions-20261123T210100000Z.jsonl.gz',
    'decisions-20261123T210200000Z.jsonl.gz',
  ]);
  expect(allLines()).toEqual(['a', 'b']);
});

test('a non-empty file left by an earlier process is closed before the first write', async () => {
  writeFileSync(join(dir, 'decisions.jsonl'), 'earlier\n');
  const f = file();
  await f.write('now\n');
  await f.close();
  expect(readdirSync(dir).sort()).toEqual(['decisions-20261123T210000000Z.jsonl.gz', 'decisions.jsonl']);
  expect(allLines()).toEqual(['earlier', 'now']);
});

test('only the newest maxFiles closed files are kept; other files in the directory are left alone', async () => {
  let now = T0;
  writeFileSync(join(dir, 'notes.txt'), 'keep me');
  const f = file({ maxBytes: 1024, maxAgeMs: 1000, maxFiles: 2, clock: () => new Date(now) });
  for (let i = 0; i < 5; i++) {
    await f.write(`${i}\n`);
    now += 1000;
  }
  await f.close();
  expect(readdirSync(dir).sort()).toEqual([
    'decisions-20261123T210003000Z.jsonl.gz',
    'decisions-20261123T210004000Z.jsonl.gz',
    'decisions.jsonl',
    'notes.txt',
  ]);
});

test('a write error rejects the write; the next write tries again', async () => {
  const f = new RotatingFile({
    path: join(dir, 'missing-dir', 'decisions.jsonl'),
    maxBytes: 1024,
    maxAgeMs: 60_000,
    maxFiles: 0,
    clock: () => new Date(T0),
    onError: () => undefined,
  });
  await expect(f.write('x\n')).rejects.toThrow(/ENOENT/);
  await expect(f.write('y\n')).rejects.toThrow(/ENOENT/);
  await f.close();
});
