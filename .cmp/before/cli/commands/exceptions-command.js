"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.exceptionsCommand = exceptionsCommand;
const node_fs_1 = require("node:fs");
const node_readline_1 = require("node:readline");
const exception_usage_1 = require("../../approvals/exception-usage");
const format_exception_usage_1 = require("../../approvals/format-exception-usage");
const load_error_1 = require("../../policy/compile/load-error");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const archive_lines_1 = require("../../replay/archive-lines");
const open_archive_1 = require("../open-archive");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
const object = (v) => (typeof v === 'object' && v !== null && !Array.isArray(v) ? v : {});
function see(reading, id, sighting) {
    if (id !== '' && reading.ids.has(id))
        return;
    if (id !== '')
        reading.ids.add(id);
    (0, exception_usage_1.readDecision)(reading.read, sighting.at);
    if (sighting.exceptions.length > 0)
        reading.sightings.push(sighting);
}
async function readArchive(path, env, reading) {
    const archive = await (0, open_archive_1.openArchive)(path, env, undefined);
    try {
        for await (const line of (0, archive_lines_1.archiveLines)(archive.streams)) {
            if (line.kind !== 'record') {
                reading.problems++;
                continue;
            }
            const { record } = line;
            see(reading, record.id, {
                at: record.at,
                allowed: record.answer.status >= 200 && record.answer.status < 300,
                exceptions: record.results.flatMap((r) => (r.exception ? [r.exception] : [])),
            });
        }
    }
    finally {
        await archive.remove();
    }
}
async function readAuditLog(file, reading) {
    const stream = (0, node_fs_1.createReadStream)(file);
    try {
        await new Promise((resolve, reject) => stream.once('open', () => resolve()).once('error', reject));
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`cannot read audit log ${file}: ${err.message}`);
    }
    for await (const raw of (0, node_readline_1.createInterface)({ input: stream, crlfDelay: Infinity })) {
        if (!raw.includes('"audit"'))
            continue;
        let line;
        try {
            line = object(JSON.parse(raw));
        }
        catch {
            continue; // not a JSON line: operational output mixed into the file
        }
        if (line.log !== 'audit' || typeof line.time !== 'string' || line.decision === 'stopped')
            continue;
        const policies = Array.isArray(line.policies) ? line.policies.map(object) : [];
        see(reading, typeof line.decisionId === 'string' ? line.decisionId : '', {
            at: line.time,
            allowed: line.decision === 'allow',
            exceptions: policies.flatMap((p) => (typeof p.exception === 'string' ? [p.exception] : [])),
        });
    }
}
function daysOf(text) {
    if (!/^\d{1,5}$/.test(text) || Number(text) < 1)
        throw new bad_input_error_1.BadInputError(`--unused-days ${text} is not a whole number of days, at least 1`);
    return Number(text);
}
/**
 * `preflight-gate exceptions --archive <a>`: each exception of the policy set, how often and when
 * last it waived an allowed run in the decision archive (and/or audit log), whether it has expired,
 * and which ones nobody used in --unused-days days: "still needed?" (docs/approvals.md).
 */
async function exceptionsCommand(opts, env, write, warn) {
    if (opts.archive === undefined && opts.auditLog === undefined)
        throw new bad_input_error_1.BadInputError('give --archive (DECISION_ARCHIVE: a file, a directory or s3://...) and/or --audit-log <file>');
    if (!format_exception_usage_1.USAGE_FORMATS.includes(opts.format))
        throw new bad_input_error_1.BadInputError(`--format ${opts.format}: use ${format_exception_usage_1.USAGE_FORMATS.join(', ')}`);
    const days = daysOf(opts.unusedDays);
    const now = (0, read_input_1.parseNow)(opts.now, () => new Date());
    const dir = (0, read_input_1.policyDirArg)(opts.dir, env);
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir, now);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the policy set in ${dir} is invalid:\n${errors.join('\n')}`);
    }
    const reading = { read: { count: 0 }, sightings: [], ids: new Set(), problems: 0 };
    if (opts.archive !== undefined)
        await readArchive(opts.archive, env, reading);
    if (opts.auditLog !== undefined)
        await readAuditLog(opts.auditLog, reading);
    if (reading.problems > 0)
        warn(`${reading.problems} archive line(s) could not be read and were left out (run replay to see them)\n`);
    const report = (0, exception_usage_1.exceptionUsage)(loaded.bundle.exceptions, reading.sightings, reading.read, now, days);
    write((0, format_exception_usage_1.formatUsage)(report, opts.format));
    return exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=exceptions-command.js.map