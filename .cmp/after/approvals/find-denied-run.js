"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.deniedRunFromArchive = deniedRunFromArchive;
exports.deniedRunFromAuditLog = deniedRunFromAuditLog;
const node_fs_1 = require("node:fs");
const node_readline_1 = require("node:readline");
const archive_lines_1 = require("../replay/archive-lines");
const archive_sources_1 = require("../replay/archive-sources");
const bad_input_error_1 = require("../common/bad-input-error");
const denied_run_1 = require("./denied-run");
const object = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
/** The run of decision `id` in a decision archive (a file or a directory, docs/replay.md). */
async function deniedRunFromArchive(path, id) {
    const damaged = [];
    for await (const line of (0, archive_lines_1.archiveLines)((0, archive_sources_1.archiveSources)(path))) {
        if (line.kind === 'damaged')
            damaged.push(`${line.file}: ${line.message}`);
        if (line.kind !== 'record' || line.record.id !== id)
            continue;
        const { record } = line;
        return {
            origin: `archive ${line.where}`,
            decisionId: record.id,
            at: record.at,
            revision: record.revision,
            message: String(object(record.answer.body).message ?? ''),
            allowed: record.answer.status >= 200 && record.answer.status < 300,
            ...(0, denied_run_1.runScopeOf)(object(record.payload).execution),
            denied: record.results.filter((r) => r.result === 'deny').map((r) => r.policy),
        };
    }
    // A damaged file may have held it: say so rather than only that it is not there.
    const unread = damaged.length > 0 ? `; it may be in what could not be read of ${damaged.join('; ')}` : '';
    throw new bad_input_error_1.BadInputError(`decision ${id} is not in the archive ${path} (is DECISION_ARCHIVE on, and the decision id the one in the denial message?)${unread}`);
}
/** The run of decision `id` in an audit log (AUDIT_LOG, docs/audit-log.md): it holds no experiment version or starter. */
async function deniedRunFromAuditLog(file, id) {
    const stream = (0, node_fs_1.createReadStream)(file);
    const opened = new Promise((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    try {
        await opened;
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`cannot read audit log ${file}: ${err.message}`);
    }
    let n = 0;
    for await (const raw of (0, node_readline_1.createInterface)({ input: stream, crlfDelay: Infinity })) {
        n++;
        if (!raw.includes(id))
            continue;
        let line;
        try {
            line = object(JSON.parse(raw));
        }
        catch {
            continue;
        }
        if (line.log !== 'audit' || line.decisionId !== id)
            continue;
        const policies = Array.isArray(line.policies) ? line.policies.map(object) : [];
        return {
            origin: `audit log ${file}:${n}`,
            decisionId: id,
            at: String(line.time ?? ''),
            revision: typeof line.revision === 'string' ? line.revision : undefined,
            message: String(line.message ?? ''),
            allowed: line.decision === 'allow',
            ...(0, denied_run_1.runScopeOf)({
                experimentKey: line.experimentKey,
                environment: line.environment,
                overrides: { environment: line.environmentOverride },
            }),
            denied: policies.filter((p) => p.result === 'deny').map((p) => String(p.policy)),
        };
    }
    throw new bad_input_error_1.BadInputError(`decision ${id} is not in the audit log ${file} (AUDIT_LOG_LEVEL must be info or warn to write denials)`);
}
//# sourceMappingURL=find-denied-run.js.map