"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkRecord = checkRecord;
const field_errors_1 = require("../validation/field-errors");
const archive_record_schema_1 = require("./generated/archive-record-schema");
const archive_record_1 = require("../archive/archive-record");
const json_object_1 = require("../common/json-object");
const ARCHIVE_HINT = 'replay reads the decision archive (DECISION_ARCHIVE, docs/replay.md), which keeps the payload and facts of every run';
/** A line without a format: the audit log or the operational log given as an archive says which, since neither can be replayed. */
function withoutFormat(value) {
    if (value.format !== undefined)
        return undefined;
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
function checkRecord(value) {
    if (!(0, json_object_1.isJsonObject)(value))
        return { ok: false, message: 'not an archive record (not a JSON object)' };
    const formatless = withoutFormat(value);
    if (formatless !== undefined)
        return { ok: false, message: formatless };
    if (value.format !== archive_record_1.ARCHIVE_FORMAT) {
        return {
            ok: false,
            message: `archive format ${JSON.stringify(value.format)} is not one this version of preflight-gate knows (it reads format ${archive_record_1.ARCHIVE_FORMAT}); replay with the version that wrote it or a newer one`,
        };
    }
    if ((0, archive_record_schema_1.validateArchiveRecord)(value))
        return { ok: true, record: value };
    return {
        ok: false,
        message: `not an archive record: ${(0, field_errors_1.toFieldErrors)(archive_record_schema_1.validateArchiveRecord.errors, (0, field_errors_1.validated)(archive_record_schema_1.validateArchiveRecord, value))
            .map((e) => `${e.path} ${e.message}`)
            .join('; ')}`,
    };
}
//# sourceMappingURL=check-record.js.map