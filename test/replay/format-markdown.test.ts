import fc from 'fast-check';
import { CHANGE_KINDS, type ChangeKind } from '../../src/replay/compare-answers';
import { formatMarkdown, MARKDOWN_LIMIT, markdownTitle } from '../../src/replay/format-markdown';
import { CHANGE_TITLES as CHANGE_TITLE_OF } from '../../src/replay/format-text';
import type { ChangedRun, ReplayReport } from '../../src/replay/replay-report';
import { generatedSize } from '../helpers/test-lane';

/** A report with `runs` changed runs of every kind (long messages), `policies` policies and `reasons` not-replayable reasons. */
function report(runs: number, policies: number, reasons: number): ReplayReport {
  const run = (kind: ChangeKind, i: number): ChangedRun => ({
    decisionId: `d-${kind}-${i}`,
    at: `2026-01-05T10:00:${String(i % 60).padStart(2, '0')}Z`,
    executionId: String(1000 + i),
    experimentKey: `ADM-${i}`,
    teamKey: 'ADM',
    environment: 'production',
    kind,
    before: {
      status: 403,
      message: `[policy-${i}] denied because ${'the reason is long '.repeat(8)}`,
      modifications: [],
    },
    after: { status: 200, message: '', modifications: [{ propertyKey: 'x', value: `${i}` }] as never },
    policies: [{ policy: `policy-${i % policies}`, before: 'deny', after: 'absent' }],
  });
  const changed = Object.fromEntries(CHANGE_KINDS.map((k) => [k, runs])) as Record<ChangeKind, number>;
  return {
    archive: 'decisions/',
    policyDir: 'policies',
    revision: 'abc123',
    listed: runs,
    counts: {
      records: runs * 5,
      outOfRange: 0,
      replayed: runs * 5,
      unchanged: 0,
      changed,
      notReplayable: reasons * 2,
      problems: 0,
      irreproducible: 0,
      damagedFiles: 0,
    },
    recordedRevisions: { abc122: runs * 5 },
    byPolicy: Array.from({ length: policies }, (_, i) => ({
      policy: `policy-${i}`,
      newlyAllowed: runs,
      newlyDenied: 0,
      changed: 0,
    })),
    changes: Object.fromEntries(
      CHANGE_KINDS.map((k) => [k, Array.from({ length: runs }, (_, i) => run(k, i))]),
    ) as Record<ChangeKind, ChangedRun[]>,
    notReplayable: Array.from({ length: reasons }, (_, i) => ({
      message: `reason ${i}: ${'cannot replay this one '.repeat(10)}`,
      count: 2,
      examples: [],
    })),
    problems: [],
    damagedFiles: [],
    irreproducible: [],
  };
}

/** What a cut must never leave: an unclosed section, half a table row, a dangling "…and". */
function wellFormed(md: string): void {
  expect(md.split('<details').length).toBe(md.split('</details>').length);
  for (const line of md.split('\n')) {
    if (line.startsWith('|')) expect(line.endsWith('|')).toBe(true);
    expect(line).not.toMatch(/…and\s*$/);
  }
  expect(md.endsWith('\n')).toBe(true);
}

test('a report under the limit is whole: every section, every row, nothing named as left out', () => {
  const md = formatMarkdown(report(3, 2, 2));
  wellFormed(md);
  expect(md.match(/<details/g)).toHaveLength(CHANGE_KINDS.length + 1);
  expect(md).not.toContain('…and');
  expect(md).not.toContain('Left out');
});

test('at any limit the comment stays under it and is cut only at row and section boundaries, saying what was left out', () => {
  const big = report(60, 70, 30);
  fc.assert(
    fc.property(fc.integer({ min: 2500, max: 80_000 }), (limit) => {
      const md = formatMarkdown(big, { limit });
      expect(md.length).toBeLessThanOrEqual(limit);
      wellFormed(md);
      // Each section is there with every run shown or counted, or named as left out.
      const sections = md.split('\n<details').slice(1);
      for (const kind of CHANGE_KINDS) {
        const title = `${CHANGE_TITLE_OF[kind]} (60)`;
        const section = sections.find((x) => x.includes(`<summary>${title}`));
        if (section === undefined) {
          expect(md).toMatch(
            new RegExp(`_Left out to stay under ${limit} characters: [^\\n]*${title.replace(/[()]/g, '\\$&')}`),
          );
          continue;
        }
        const rows = section.split('\n').filter((l) => l.startsWith('| 2026-')).length;
        const hidden = Number(/…and (\d+) more \(the JSON report/.exec(section)?.[1] ?? 0);
        expect(rows + hidden).toBe(60);
        // A section shown has rows: one that does not fit is left out whole, never a header-only table.
        expect(rows).toBeGreaterThan(0);
      }
      if (md.includes('| Policy | Newly allowed')) expect(md).toContain('| policy-0 |');
      else expect(md).toMatch(/_Left out to stay under \d+ characters: changes per policy/);
    }),
    { numRuns: generatedSize(60, 15) },
  );
});

test('the default limit keeps a GitHub comment (65,536 characters) whole, with the newly allowed runs first', () => {
  const md = formatMarkdown(report(500, 10, 5));
  expect(md.length).toBeLessThanOrEqual(MARKDOWN_LIMIT);
  wellFormed(md);
  expect(md.indexOf('Newly allowed')).toBeLessThan(md.indexOf('Newly denied'));
  expect(md).toMatch(/…and \d+ more \(the JSON report/);
  expect(md).toMatch(/_Left out to stay under 60000 characters: .*Not replayable \(10\)/);
});

/** The same report with other counts (what was replayed, what could not be). */
const counted = (counts: Partial<ReplayReport['counts']>): ReplayReport => {
  const r = report(3, 2, 0);
  return { ...r, counts: { ...r.counts, ...counts } };
};
const noChange = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;

test('the title says "no archived run would be decided differently" only when every run was replayed', () => {
  expect(markdownTitle(counted({ changed: noChange }))).toBe('no archived run would be decided differently');
  expect(markdownTitle(counted({}))).toBe(`${3 * CHANGE_KINDS.length} archived runs would be decided differently`);
});

test.each([
  [
    'nothing replayed: the audit log by mistake',
    { replayed: 0, records: 0, changed: noChange, problems: 7 },
    'nothing was replayed, so nothing was checked (7 archive lines unreadable)',
  ],
  [
    'nothing replayed: an empty file',
    { replayed: 0, records: 0, changed: noChange },
    'nothing was replayed, so nothing was checked',
  ],
  [
    'a damaged file',
    { changed: noChange, damagedFiles: 1 },
    'replay incomplete (1 archive file damaged): no replayed run would be decided differently',
  ],
  [
    'runs not replayable and unreadable lines',
    { changed: { ...noChange, 'newly-denied': 1 }, notReplayable: 4, problems: 1 },
    'replay incomplete (4 runs not replayable, 1 archive line unreadable): 1 replayed run would be decided differently',
  ],
])('a partial replay is not reassuring: %s', (_what, counts, title) => {
  expect(markdownTitle(counted(counts))).toBe(title);
  const md = formatMarkdown(counted(counts));
  expect(md.startsWith(`### preflight-gate replay: ${title}\n`)).toBe(true);
  expect(md).not.toContain('no archived run would be decided differently');
});
