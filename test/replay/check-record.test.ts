import { auditRecord } from '../../src/observability/audit-record';
import { checkRecord } from '../../src/replay/check-record';
import { ARCHIVE_FORMAT } from '../../src/archive/archive-record';

const auditLine = JSON.parse(
  JSON.stringify(
    auditRecord(
      { decisionId: 'd-1', time: new Date('2026-01-05T10:00:00Z'), status: 500, errorMessage: 'boom', durationMs: 1 },
      { kind: 'all' },
    ),
  ),
) as unknown;

test.each([
  [
    'an audit log line',
    auditLine,
    /^an audit log line, not a decision archive record: replay reads the decision archive \(DECISION_ARCHIVE, docs\/replay\.md\)/,
  ],
  [
    'an operational log line',
    { time: '2026-01-05T10:00:00Z', level: 'info', message: 'preflight-gate listening' },
    /^an operational log line, not a decision archive record: replay reads the decision archive/,
  ],
  [
    'a record of a newer format',
    { format: ARCHIVE_FORMAT + 1, id: 'x' },
    /^archive format 2 is not one this version of preflight-gate knows/,
  ],
  ['an object of no known kind', { id: 'x' }, /^not a decision archive record \(it has no "format" field\)/],
  ['not an object', [1, 2], /^not an archive record \(not a JSON object\)/],
])('%s is refused, saying what it is', (_what, line, message) => {
  const checked = checkRecord(line);
  expect(checked.ok).toBe(false);
  expect(checked.ok ? '' : checked.message).toMatch(message);
});
