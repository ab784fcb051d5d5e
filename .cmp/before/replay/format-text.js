"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.totalChanged = exports.policyLine = exports.answerLine = exports.CHANGE_TITLES = void 0;
exports.headline = headline;
exports.formatText = formatText;
const compare_answers_1 = require("./compare-answers");
const replay_gaps_1 = require("./replay-gaps");
const run_label_1 = require("./run-label");
exports.CHANGE_TITLES = {
    'newly-allowed': 'Newly allowed (a guardrail loosened)',
    'newly-denied': 'Newly denied',
    message: 'Message changed',
    modifications: 'Modifications changed',
    results: 'Policy results changed (same answer)',
};
const answerLine = (a) => `${a.status}${a.message ? `: ${a.message}` : ''}${a.modifications.length > 0 ? ` (modifications: ${JSON.stringify(a.modifications)})` : ''}`;
exports.answerLine = answerLine;
const policyLine = (run) => run.policies.map((p) => `${p.policy} ${p.before} -> ${p.after}`).join(', ');
exports.policyLine = policyLine;
/** One sentence of what was replayed against what. */
function headline(r) {
    const range = r.since || r.until
        ? ` decided ${r.since ? `from ${r.since}` : ''}${r.since && r.until ? ' ' : ''}${r.until ? `until ${r.until}` : ''}`
        : '';
    return `Replayed ${r.counts.replayed} archived decision${r.counts.replayed === 1 ? '' : 's'}${range} against the policies in ${r.policyDir} (revision ${r.revision})`;
}
const totalChanged = (r) => compare_answers_1.CHANGE_KINDS.reduce((n, k) => n + r.counts.changed[k], 0);
exports.totalChanged = totalChanged;
/** `--format text`: counts, then the changed runs (newly allowed first), per policy, and what could not be replayed. */
function formatText(r) {
    const out = [`${headline(r)}.`, ''];
    const nothing = r.counts.replayed === 0 ? (0, replay_gaps_1.nothingReplayed)(r) : '';
    if (nothing)
        out.splice(1, 0, `${nothing[0].toUpperCase()}${nothing.slice(1)}.`);
    const row = (label, n) => out.push(`  ${label.padEnd(40)} ${n}`);
    for (const kind of compare_answers_1.CHANGE_KINDS)
        row(exports.CHANGE_TITLES[kind], r.counts.changed[kind]);
    row('Unchanged', r.counts.unchanged);
    row('Not replayable', r.counts.notReplayable);
    if (r.counts.outOfRange > 0)
        row('Outside --since/--until', r.counts.outOfRange);
    if (r.counts.problems > 0)
        row('Unreadable lines', r.counts.problems);
    if (r.counts.damagedFiles > 0)
        row('Damaged files (replay incomplete)', r.counts.damagedFiles);
    for (const kind of compare_answers_1.CHANGE_KINDS) {
        const runs = r.changes[kind];
        if (runs.length === 0)
            continue;
        out.push('', `${exports.CHANGE_TITLES[kind]} (${r.counts.changed[kind]}${runs.length < r.counts.changed[kind] ? `, first ${runs.length} listed` : ''}):`);
        for (const run of runs) {
            out.push(`  ${run.at}  ${(0, run_label_1.runLabel)(run)}  decision ${run.decisionId}`);
            out.push(`    was ${(0, exports.answerLine)(run.before)}`, `    now ${(0, exports.answerLine)(run.after)}`);
            if (run.policies.length > 0)
                out.push(`    policies: ${(0, exports.policyLine)(run)}`);
        }
    }
    if (r.byPolicy.length > 0) {
        out.push('', 'By policy:');
        for (const p of r.byPolicy)
            out.push(`  ${p.policy}: newly allowed ${p.newlyAllowed}, newly denied ${p.newlyDenied}, other changes ${p.changed}`);
    }
    if (r.notReplayable.length > 0) {
        out.push('', `Not replayable (${r.counts.notReplayable}):`);
        for (const n of r.notReplayable)
            out.push(`  ${n.count} x ${n.message}`, `    e.g. ${n.examples.slice(0, 3).map(run_label_1.runLabel).join('; ')}`);
    }
    if (r.damagedFiles.length > 0) {
        out.push('', `Damaged files (${r.counts.damagedFiles}): the runs after the place named were not replayed:`);
        for (const d of r.damagedFiles)
            out.push(`  ${d.file}: ${d.message}`);
    }
    if (r.problems.length > 0) {
        out.push('', `Unreadable lines (${r.counts.problems}):`);
        for (const p of r.problems)
            out.push(`  ${p.count} x ${p.message} (first at ${p.examples[0]})`);
    }
    if (r.dependsOnUses) {
        const d = r.dependsOnUses;
        out.push('', `${d.count} run(s) answered as they did because of an exception's use count (${d.rule}):`, ...d.runs.map((run) => `  ${run.decisionId} at ${run.at} (${run.experimentKey ?? 'no experiment key'}): ${run.allowed ? 'allowed' : 'denied'} with uses ${Object.entries(run.usesRecorded)
            .map(([n, c]) => `${n}=${c}`)
            .join(', ')}`));
    }
    if (r.counts.irreproducible > 0)
        out.push('', `WARNING: ${r.counts.irreproducible} run(s) decided by revision ${r.revision} answer differently now: replay is not exact for them.`);
    return `${out.join('\n')}\n`;
}
//# sourceMappingURL=format-text.js.map