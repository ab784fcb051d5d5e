import { toFieldErrors, validated } from '../validation/field-errors';
import { validateArchiveRecord as validate } from './generated/archive-record-schema';
import { ARCHIVE_FORMAT, type ArchiveRecord } from '../archive/archive-record';
import { isJsonObject } from '../common/json-object';

export type CheckedRecord = { ok: true; record: ArchiveRecord } | { ok: false; message: string };

const ARCHIVE_HINT =
  'replay reads the decision archive (DECISION_ARCHIVE, docs/replay.md), which keeps the payload and facts of every run';

/** A line without a format: the audit log or the operational log given as an archive says which, since neither can be replayed. */
function withoutFormat(value: Record<string, unknown>): string | undefined {
  if (value.format !== undefined) return undefined;
  if (value.log === 'audit')
    return `an audit log line, not a decision archive record: ${ARCHIVE_HINT}; the audit log does not`;
  if (typeof value.level === 'string' && typeof value.message === 'string')
    return `an operational log line, not a decision archive record: ${ARCHIVE_HINT}`;
  return `not a decision archive record (it has no "format" field): ${ARCHIVE_HINT}`;
}

/**
 * A parsed archive line -> a record replay can use, or why not: a format this version does not
 * know (written by a newer preflight-gate), or a line that is not an archive record.
 */
export function checkRecord(value: unknown): CheckedRecord {
  if (!isJsonObject(value)) return { ok: false, message: 'not an archive record (not a JSON object)' };
  const formatless = withoutFormat(value);
  if (formatless !== undefined) return { ok: false, message: formatless };
  if (value.format !== ARCHIVE_FORMAT) {
    return {
      ok: false,
      message: `archive format ${JSON.stringify(value.format)} is not one this version of preflight-gate knows (it reads format ${ARCHIVE_FORMAT}); replay with the version that wrote it or a newer one`,
    };
  }
  if (validate(value)) return { ok: true, record: value };
  return {
    ok: false,
    message: `not an archive record: ${toFieldErrors(validate.errors, validated(validate, value))
      .map((e) => `${e.path} ${e.message}`)
      .join('; ')}`,
  };
}
