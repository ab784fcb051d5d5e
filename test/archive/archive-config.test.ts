import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArchiveConfig } from '../../src/archive/archive-config';
import { loadConfig } from '../../src/service/config';

const dir = mkdtempSync(join(tmpdir(), 'archive-config-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

test('off unless DECISION_ARCHIVE is set', () => {
  expect(parseArchiveConfig({})).toEqual({ kind: 'off' });
  expect(parseArchiveConfig({ DECISION_ARCHIVE: 'off' })).toEqual({ kind: 'off' });
  expect(loadConfig({}).archive).toEqual({ kind: 'off' });
});

test('documented defaults; a file path is used as it is', () => {
  expect(parseArchiveConfig({ DECISION_ARCHIVE: '/data/decisions.jsonl' })).toEqual({
    kind: 'file',
    path: '/data/decisions.jsonl',
    maxBytes: 64 * 1024 ** 2,
    maxAgeMs: 3_600_000,
    maxFiles: 168,
    queueBytes: 32 * 1024 ** 2,
    maskAttributes: [],
  });
});

test('a directory (existing, or ending in /) holds one file per host', () => {
  expect(parseArchiveConfig({ DECISION_ARCHIVE: dir }, 'pod-1')).toMatchObject({
    path: join(dir, 'decisions-pod-1.jsonl'),
  });
  expect(parseArchiveConfig({ DECISION_ARCHIVE: '/not/yet/' }, 'pod/2')).toMatchObject({
    path: '/not/yet/decisions-pod_2.jsonl',
  });
});

test('sizes, durations, file counts and masked keys are read and checked', () => {
  expect(
    parseArchiveConfig({
      DECISION_ARCHIVE: '/a.jsonl',
      DECISION_ARCHIVE_MAX_BYTES: '10mb',
      DECISION_ARCHIVE_MAX_AGE: '1d',
      DECISION_ARCHIVE_MAX_FILES: '0',
      DECISION_ARCHIVE_QUEUE_BYTES: '512kb',
      DECISION_ARCHIVE_MASK_ATTRIBUTES: 'k8s.namespace, aws.account',
    }),
  ).toMatchObject({
    maxBytes: 10 * 1024 ** 2,
    maxAgeMs: 86_400_000,
    maxFiles: 0,
    queueBytes: 512 * 1024,
    maskAttributes: ['k8s.namespace', 'aws.account'],
  });
});

test.each([
  [
    { DECISION_ARCHIVE_MAX_BYTES: 'lots' },
    'DECISION_ARCHIVE_MAX_BYTES must be a size of at least 1024 bytes, such as 64mb or 512kb, got "lots"',
  ],
  [
    { DECISION_ARCHIVE_MAX_AGE: '5 minutes' },
    'DECISION_ARCHIVE_MAX_AGE must be a duration of at least 1s, such as 1h or 30m, got "5 minutes"',
  ],
  [
    { DECISION_ARCHIVE_MAX_FILES: '-1' },
    'DECISION_ARCHIVE_MAX_FILES must be a whole number from 0 to 1000000, got "-1"',
  ],
  [
    { DECISION_ARCHIVE_QUEUE_BYTES: '1b' },
    'DECISION_ARCHIVE_QUEUE_BYTES must be a size of at least 1024 bytes, such as 64mb or 512kb, got "1b"',
  ],
  [
    { DECISION_ARCHIVE_MASK_ATTRIBUTES: 'a,,b' },
    'DECISION_ARCHIVE_MASK_ATTRIBUTES must be a comma-separated list of attribute keys (no empty entries), got "a,,b"',
  ],
])('%j is a configuration error naming the variable', (env, message) => {
  expect(() => loadConfig({ DECISION_ARCHIVE: '/a.jsonl', ...env })).toThrow(message);
});
