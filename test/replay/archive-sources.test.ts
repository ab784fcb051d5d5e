import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { archiveSources } from '../../src/replay/archive-sources';
import { BadInputError } from '../../src/common/bad-input-error';

/**
 * `--archive` names a directory that cannot be listed (mode 000, another user's): a usage error
 * naming the directory and why (exit 2, as a missing archive), not an internal error (exit 1, which
 * --fail-on reads as "found a change"). The failing read is injected: tests run as root, whom
 * chmod 000 does not stop.
 */
let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'archive-sources-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('a directory that cannot be listed is a usage error naming it and the reason', () => {
  const denied = () => {
    throw Object.assign(new Error(`EACCES: permission denied, scandir '${dir}'`), { code: 'EACCES' });
  };
  expect(() => archiveSources(dir, denied)).toThrow(
    new BadInputError(`archive directory ${dir} cannot be read: EACCES: permission denied, scandir '${dir}'`),
  );
});

test('a readable directory is listed as before', () => {
  writeFileSync(join(dir, 'decisions-host.jsonl'), '');
  expect(archiveSources(dir).map((s) => s.files.map((f) => f.path))).toEqual([[join(dir, 'decisions-host.jsonl')]]);
});
