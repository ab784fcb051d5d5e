import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { deniedRunFromArchive } from '../../src/approvals/find-denied-run';
import { replayCommand } from '../../src/cli/commands/replay-command';
import { readRecords, type ArchiveLine } from '../../src/replay/read-records';
import type { ReplayReport } from '../../src/replay/replay-report';

/**
 * An archive file that cannot be read to its end (a gzip file cut short, or corrupt) is named as
 * damaged, with how far it was read, never as `<file>:0` with the audit log's hint; replay then
 * exits 2 whatever --fail-on says (the replay is incomplete), after the report of what was read.
 */
const LINES = Array.from(
  { length: 400 },
  (_, i) =>
    `${JSON.stringify({ time: '2026-01-05T10:00:00Z', level: 'info', message: `line ${i}`, pad: 'x'.repeat(300 + (i % 7)) })}\n`,
).join('');
const GZIP = gzipSync(LINES);

describe('a damaged archive file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'damaged-archive-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const file = (name: string, bytes: Buffer) => {
    writeFileSync(join(dir, name), bytes);
    return join(dir, name);
  };
  const read = async (path: string) => {
    const out: ArchiveLine[] = [];
    for await (const line of readRecords(path)) out.push(line);
    return out;
  };

  it('a gzip file cut short: its last line says truncated, where it ends and how many lines were read', async () => {
    const cut = file('cut.jsonl.gz', GZIP.subarray(0, Math.floor(GZIP.length / 2)));
    const lines = await read(cut);
    const last = lines.at(-1);
    const problems = lines.filter((l) => l.kind === 'problem');
    expect(last).toEqual({
      kind: 'damaged',
      file: cut,
      line: problems.length,
      message: `the gzip file is truncated: it ends at byte ${Math.floor(GZIP.length / 2)}, in the middle of its compressed data (unexpected end of file); lines 1-${problems.length} were read, the rest of the file cannot be`,
    });
    expect(problems.length).toBeGreaterThan(0);
    expect(problems.length).toBeLessThan(400);
    expect(lines.filter((l) => l.kind === 'damaged')).toHaveLength(1);
  });

  it('cut inside its header: no line of it could be read', async () => {
    const cut = file('head.jsonl.gz', GZIP.subarray(0, 12));
    expect(await read(cut)).toEqual([
      {
        kind: 'damaged',
        file: cut,
        line: 0,
        message:
          'the gzip file is truncated: it ends at byte 12, in the middle of its compressed data (unexpected end of file); no line of it could be read',
      },
    ]);
  });

  it('a gzip file whose data check fails is corrupt', async () => {
    const bad = Buffer.from(GZIP);
    bad[bad.length - 6] ^= 0xff; // the CRC-32 at the end
    const lines = await read(file('crc.jsonl.gz', bad));
    expect(lines.at(-1)).toMatchObject({
      kind: 'damaged',
      message: expect.stringMatching(
        /^the gzip file is corrupt, found after \d+ of its \d+ bytes \(incorrect data check\); lines 1-\d+ were read, the rest of the file cannot be$/,
      ),
    });
  });

  it.each([
    ['a whole gzip file', GZIP, 400],
    ['a small one (one chunk: gunzip dropped all its lines)', gzipSync(LINES.split('\n').slice(0, 3).join('\n')), 3],
    ['two members', Buffer.concat([GZIP, gzipSync(LINES)]), 800],
  ])(
    '%s with trailing data after it: every line is read, and the file is named as damaged by trailing data',
    async (_what, gz, count) => {
      const garbage = Buffer.from('appended by mistake\n');
      const path = file(`trailing-${count}.jsonl.gz`, Buffer.concat([gz, garbage]));
      const lines = await read(path);
      const size = gz.length + garbage.length;
      expect(lines.filter((l) => l.kind === 'problem')).toHaveLength(count);
      expect(lines.at(-1)).toEqual({
        kind: 'damaged',
        file: path,
        line: count,
        message: `the gzip file has trailing data after its compressed stream: bytes ${gz.length + 1}-${size} of ${size} are not gzip data (incorrect header check); lines 1-${count} were read, the trailing data cannot be`,
      });
      expect(lines.filter((l) => l.kind === 'damaged')).toHaveLength(1);
    },
  );

  it('a gzip file whose first header is bad is corrupt, not one with trailing data', async () => {
    const bad = Buffer.from(GZIP);
    bad[2] = 7; // not deflate
    const path = file('bad-method.jsonl.gz', bad);
    expect(await read(path)).toEqual([
      {
        kind: 'damaged',
        file: path,
        line: 0,
        message: expect.stringMatching(
          /^the gzip file is corrupt, found after \d+ of its \d+ bytes \(.+\); no line of it could be read$/,
        ),
      },
    ]);
  });

  it('zeros after the last member are padding, not damage (as gzip -dc reads them)', async () => {
    const lines = await read(file('padded.jsonl.gz', Buffer.concat([GZIP, Buffer.alloc(512)])));
    expect(lines).toHaveLength(400);
    expect(lines.every((l) => l.kind === 'problem')).toBe(true);
  });

  it('a file that cannot be opened is damaged too: none of it was read', async () => {
    const gone = join(dir, 'gone.jsonl.gz');
    expect(await read(gone)).toEqual([
      { kind: 'damaged', file: gone, line: 0, message: expect.stringMatching(/^the file cannot be read \(ENOENT: /) },
    ]);
  });

  it('a whole gzip file is not damaged', async () => {
    const lines = await read(file('whole.jsonl.gz', GZIP));
    expect(lines).toHaveLength(400);
    expect(lines.every((l) => l.kind === 'problem')).toBe(true);
  });

  it.each([[undefined], ['any-change' as const]])(
    'replay (--fail-on %s) names the damaged file on stderr and in the report, without the audit-log hint, and exits 2',
    async (failOn) => {
      const cut = file('decisions.jsonl.gz', GZIP.subarray(0, 40));
      let out = '';
      const warnings: string[] = [];
      const code = await replayCommand(
        { archive: cut, dir: 'policies', format: 'json', maxListed: '10', failOn },
        {},
        (s) => {
          out += s;
        },
        (s) => warnings.push(s),
      );
      expect(code).toBe(2);
      const report = JSON.parse(out) as ReplayReport;
      expect(report.counts.damagedFiles).toBe(1);
      expect(report.damagedFiles).toEqual([
        { file: cut, line: 0, message: expect.stringMatching(/^the gzip file is truncated: it ends at byte 40/) },
      ]);
      expect(report.counts.problems).toBe(0);
      const stderr = warnings.join('');
      expect(stderr).toContain(
        `preflight-gate: archive file ${cut} is damaged: the gzip file is truncated: it ends at byte 40`,
      );
      expect(stderr).toContain('; the replay is incomplete\n');
      expect(stderr).not.toContain('audit log');
      expect(stderr).not.toContain(`${cut}:0`);
    },
  );

  it('exception --from-decision: a decision not found in a damaged archive may be in what could not be read, and is told so', async () => {
    const cut = file('lookup.jsonl.gz', GZIP.subarray(0, 40));
    await expect(deniedRunFromArchive(cut, 'd-1')).rejects.toThrow(
      new RegExp(
        `^decision d-1 is not in the archive .*; it may be in what could not be read of ${cut}: the gzip file is truncated`,
      ),
    );
  });
});
