"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.FAIL_ON = exports.REPLAY_FORMATS = void 0;
exports.replayCommand = replayCommand;
const duration_1 = require("../../syntax/duration");
const load_error_1 = require("../../policy/compile/load-error");
const load_policy_dir_1 = require("../../policy/loading/load-policy-dir");
const format_markdown_1 = require("../../replay/format-markdown");
const format_text_1 = require("../../replay/format-text");
const replay_archive_1 = require("../../replay/replay-archive");
const replay_gaps_1 = require("../../replay/replay-gaps");
const run_label_1 = require("../../replay/run-label");
const open_archive_1 = require("../open-archive");
const replay_workers_option_1 = require("../../replay/replay-workers-option");
const read_input_1 = require("../read-input");
const exit_codes_1 = require("../exit-codes");
const bad_input_error_1 = require("../../common/bad-input-error");
exports.REPLAY_FORMATS = ['text', 'json', 'markdown'];
exports.FAIL_ON = ['newly-allowed', 'any-change'];
/** At most this many warnings on stderr; the report counts every one. */
const MAX_WARNINGS = 20;
/** A duration with a unit (`14d`, `12h`): that long before now. */
const AGO = /^\d+(?:\.\d+)?(?:w|d|h|m|s)$/;
/** An ISO time, or a duration back from `now` (`--since 14d`). */
function time(value, flag, now) {
    if (value !== undefined && AGO.test(value.trim()))
        return new Date(now().getTime() - (0, duration_1.parseDuration)(value));
    try {
        return value === undefined ? undefined : (0, read_input_1.parseNow)(value, now);
    }
    catch {
        throw new bad_input_error_1.BadInputError(`${flag} must be an ISO 8601 time such as 2026-03-02T10:00:00Z or a duration back from now such as 14d, got "${value}"`);
    }
}
/**
 * Why --fail-on cannot vouch for the proposed policies, whatever changed: runs that cannot be
 * replayed (a proposal adding a memory rule makes every run unreplayable; unless
 * --tolerate-not-replayable says the archive is known to hide what some rules read), unreadable
 * archive lines. (Nothing replayed at all exits 2 before: replayStreams.) Fail closed.
 */
function cannotVouch(report, opts) {
    if (opts.failOn === undefined)
        return [];
    const { notReplayable, problems } = report.counts;
    const why = [];
    if (notReplayable > 0 && opts.tolerateNotReplayable !== true)
        why.push(`${notReplayable} archived runs could not be replayed, so the proposed policies cannot be vouched for (see "Not replayable"; --tolerate-not-replayable accepts that)`);
    if (problems > 0)
        why.push(`${problems} archive lines could not be read (see "Unreadable lines"): is --archive the decision archive (DECISION_ARCHIVE), not the audit log?`);
    return why;
}
/** Whether --fail-on finds what it names. */
function changedAsNamed(report, failOn) {
    if (failOn === 'newly-allowed')
        return report.counts.changed['newly-allowed'] > 0;
    // Same answer, other per-policy results (a new warn policy) is no change for Steadybit.
    if (failOn === 'any-change')
        return (0, format_text_1.totalChanged)(report) - report.counts.changed.results > 0;
    return false;
}
/**
 * `preflight-gate replay --archive <file|dir> --dir <proposed policies>`: decides every archived
 * run again under the proposed set and reports what would change (docs/replay.md). Exit 0, or 1
 * when --fail-on finds what it names or cannot vouch (runs not replayed, unreadable lines); 2 on a usage error, an invalid policy set,
 * an archive file that cannot be read to its end (a gzip file cut short or corrupt) or no record replayed at all (the
 * report is still written).
 */
async function replayCommand(opts, env, write, warn, now = () => new Date()) {
    const since = time(opts.since, '--since', now);
    const until = time(opts.until, '--until', now);
    if (since && until && since.getTime() >= until.getTime())
        throw new bad_input_error_1.BadInputError(`--since (${opts.since}) must be before --until (${opts.until})`);
    const listed = Number(opts.maxListed);
    if (!Number.isInteger(listed) || listed < 0)
        throw new bad_input_error_1.BadInputError(`--max-listed must be a whole number, got "${opts.maxListed}"`);
    const unknown = opts.runUrl?.match(/\{[^}]*\}/g)?.filter((p) => !run_label_1.RUN_URL_PLACEHOLDERS.includes(p.slice(1, -1)));
    if (unknown && unknown.length > 0)
        throw new bad_input_error_1.BadInputError(`--run-url: unknown placeholder ${unknown[0]}; use ${run_label_1.RUN_URL_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
    const dir = (0, read_input_1.policyDirArg)(opts.dir, env);
    // Checked before the archive is fetched (an s3:// one is downloaded): a usage error costs nothing.
    (0, replay_workers_option_1.replayWorkers)(opts.workers ?? '0', []);
    const archive = await (0, open_archive_1.openArchive)(opts.archive, env, since);
    try {
        return await replayStreams(archive.streams, dir, opts, { write, warn, since, until, listed });
    }
    finally {
        await archive.remove();
    }
}
async function replayStreams(streams, dir, opts, io) {
    const { write, warn, since, until, listed } = io;
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(dir);
    if (!loaded.ok) {
        const errors = loaded.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
        throw new bad_input_error_1.BadInputError(`the policy set in ${dir} is invalid, so nothing can be replayed (the service would not start):\n${errors.join('\n')}`);
    }
    let warnings = 0;
    const report = await (0, replay_archive_1.replayArchive)({
        streams,
        archive: opts.archive,
        policyDir: dir,
        bundle: loaded.bundle,
        since,
        until,
        listed,
        workers: (0, replay_workers_option_1.replayWorkers)(opts.workers ?? '0', streams),
        warn: (where, message) => {
            if (++warnings <= MAX_WARNINGS)
                warn(`preflight-gate: warning: ${where}: ${message}\n`);
        },
    });
    if (warnings > MAX_WARNINGS)
        warn(`preflight-gate: warning: ${warnings - MAX_WARNINGS} more warnings (the report counts them all)\n`);
    if (opts.format === 'json')
        write(`${JSON.stringify(report, null, 2)}\n`);
    else if (opts.format === 'markdown')
        write((0, format_markdown_1.formatMarkdown)(report, { runUrl: opts.runUrl }));
    else
        write((0, format_text_1.formatText)(report));
    // A file that cannot be read to its end makes the replay incomplete whatever --fail-on says:
    // exit 2, as for an archive that is not there (fail closed), after the report of what was read.
    for (const d of report.damagedFiles)
        warn(`preflight-gate: archive file ${d.file} is damaged: ${d.message}; the replay is incomplete\n`);
    // Nothing replayed (the audit log by mistake, an empty file, every run unreplayable or out of
    // range) checked nothing: exit 2 whatever --fail-on says, as for an empty archive directory.
    if (report.counts.replayed === 0)
        warn(`preflight-gate: ${(0, replay_gaps_1.nothingReplayed)(report)}\n`);
    if (report.damagedFiles.length > 0 || report.counts.replayed === 0)
        return exit_codes_1.EXIT.usage;
    const why = cannotVouch(report, opts);
    for (const reason of why)
        warn(`preflight-gate: --fail-on: ${reason}\n`);
    return why.length > 0 || changedAsNamed(report, opts.failOn) ? exit_codes_1.EXIT.failed : exit_codes_1.EXIT.ok;
}
//# sourceMappingURL=replay-command.js.map