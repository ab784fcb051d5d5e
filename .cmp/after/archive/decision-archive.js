"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.toArchiveRecord = toArchiveRecord;
exports.decisionArchive = decisionArchive;
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const preflight_answer_1 = require("../policy/core/preflight-answer");
const archive_record_1 = require("./archive-record");
const mask_attributes_1 = require("../redaction/mask-attributes");
const archived_results_1 = require("./archived-results");
const target_redaction_1 = require("../redaction/target-redaction");
/** Decisions recorded but not yet serialised wait here; more than this in one turn are dropped. */
const MAX_PENDING = 10_000;
/**
 * The archive line of a decision. With masked keys, their values are replaced in the payload, and
 * wherever the answer or a result quotes them (only a rule that read them can: replay reports such
 * a run as not replayable), so the values are written nowhere.
 */
function toArchiveRecord(entry, masked) {
    const { decision } = entry;
    const payload = (0, mask_attributes_1.maskAttributes)(entry.payload, masked);
    const hide = masked.size > 0 ? (0, target_redaction_1.targetRedactor)(entry.payload, { kind: 'keys', keys: [...masked] }) : undefined;
    const answer = (0, preflight_answer_1.preflightAnswer)(decision, entry.explain);
    return {
        format: archive_record_1.ARCHIVE_FORMAT,
        id: decision.id,
        at: entry.now.toISOString(),
        revision: entry.bundle.revision,
        builtIns: (0, built_in_policies_1.builtInNames)(entry.bundle),
        explain: entry.explain,
        payload,
        ...(masked.size > 0 ? { masked: [...masked] } : {}),
        ...(entry.whileRunning ? { whileRunning: true } : {}),
        facts: { needs: [...entry.needs], ...entry.facts },
        answer: hide ? (0, target_redaction_1.redactDeep)(answer, hide) : answer,
        results: hide ? (0, target_redaction_1.redactDeep)((0, archived_results_1.archivedResults)(decision.results), hide) : (0, archived_results_1.archivedResults)(decision.results),
    };
}
/**
 * The decision archive (docs/replay.md): every decision becomes one JSON line, written after the
 * answer is sent. Serialising waits for the next turn of the event loop (the answers of one turn go
 * out first); the queue of lines is bounded in bytes, and a record that does not fit is dropped and
 * counted (preflight_decision_archive_records_total{outcome="dropped"}), as is a failed write. No
 * error of the archive ever reaches an answer.
 */
function decisionArchive(deps) {
    const masked = new Set(deps.maskAttributes);
    const count = (outcome, n = 1) => deps.metrics.archive.inc({ outcome }, n);
    let pending = [];
    let lines = [];
    let queued = 0;
    let writing;
    let lastLog = -Infinity;
    let closed = false;
    const logError = (message, err) => {
        const now = Date.now();
        if (now - lastLog < (deps.logEveryMs ?? 60_000))
            return;
        lastLog = now;
        deps.logger.error(message, { error: err instanceof Error ? err.message : String(err) });
    };
    const drain = async () => {
        while (lines.length > 0) {
            const batch = lines;
            lines = [];
            queued = 0;
            try {
                await deps.writer.write(batch.join(''));
                count('written', batch.length);
            }
            catch (err) {
                count('failed', batch.length);
                logError('decision archive: lines could not be written and are lost', err);
            }
        }
        writing = undefined;
    };
    const serialise = () => {
        const entries = pending;
        pending = [];
        for (const entry of entries) {
            let line;
            try {
                line = `${JSON.stringify(toArchiveRecord(entry, masked))}\n`;
            }
            catch (err) {
                count('failed');
                logError('decision archive: a decision could not be serialised', err);
                continue;
            }
            if (queued + line.length > deps.queueBytes) {
                count('dropped');
                continue;
            }
            lines.push(line);
            queued += line.length;
        }
        writing ??= drain();
    };
    return {
        record(entry) {
            // Full, or an answer forced out after shutdown closed the file: dropped and counted.
            if (closed || pending.length >= MAX_PENDING)
                return count('dropped');
            if (pending.push(entry) === 1)
                setImmediate(serialise);
        },
        async close(deadlineMs) {
            closed = true;
            if (pending.length > 0)
                serialise();
            while (writing)
                await writing;
            await deps.writer.close(deadlineMs);
        },
    };
}
//# sourceMappingURL=decision-archive.js.map