"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MARKDOWN_LIMIT = void 0;
exports.cell = cell;
exports.markdownTitle = markdownTitle;
exports.formatMarkdown = formatMarkdown;
const compare_answers_1 = require("./compare-answers");
const format_text_1 = require("./format-text");
const replay_gaps_1 = require("./replay-gaps");
const run_label_1 = require("./run-label");
/** GitHub refuses comments over 65,536 characters; stay well below, with room for the closing lines. */
exports.MARKDOWN_LIMIT = 60_000;
/** Text safe inside a table cell: no pipes or line breaks, markup characters escaped, long texts cut. */
function cell(text, max = 300) {
    const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
    return cut
        .replace(/\\/g, '\\\\')
        .replace(/[|`*_<>[\]]/g, (c) => `\\${c}`)
        .replace(/\r?\n/g, ' ');
}
const answerCell = (a) => cell(`${a.status}${a.message ? ` ${a.message}` : ''}${a.modifications.length > 0 ? ` (modifications: ${JSON.stringify(a.modifications)})` : ''}`);
function runCell(run, template) {
    const url = (0, run_label_1.runUrl)(template, run);
    return url ? `[${cell((0, run_label_1.runLabel)(run))}](${url})` : cell((0, run_label_1.runLabel)(run));
}
function changeRow(run, template) {
    const policies = run.policies.map((p) => `${p.policy} ${p.before} → ${p.after}`).join(', ');
    return `| ${cell(run.at)} | ${runCell(run, template)} | ${answerCell(run.before)} | ${answerCell(run.after)} | ${cell(policies)} |`;
}
/** The longest "…and N more" line and the note on left-out sections, kept free in every budget. */
const RESERVE = 600;
/**
 * The blocks in order, each with as many whole rows as fit in `limit` characters; a block whose
 * opening and first row do not fit is left out whole and named in a closing note. Never cuts inside a row,
 * a table or a `<details>` section.
 */
function fitBlocks(blocks, limit, used) {
    let out = '';
    const leftOut = [];
    for (const block of blocks) {
        const frame = block.open.length + block.close.length;
        if (used + out.length + frame + RESERVE > limit) {
            leftOut.push(block.title);
            continue;
        }
        let rows = '';
        let shown = 0;
        for (const row of block.rows) {
            if (used + out.length + frame + rows.length + row.length + RESERVE > limit)
                break;
            rows += row;
            shown++;
        }
        // Rows to show and none fits: the section is left out whole (no header-only table), and named.
        if (shown === 0 && block.rows.length > 0) {
            leftOut.push(block.title);
            continue;
        }
        const hidden = block.total - shown;
        out += `${block.open}${rows}${hidden > 0 ? block.more(hidden) : ''}${block.close}`;
    }
    if (leftOut.length > 0)
        out += `\n_Left out to stay under ${limit} characters: ${cell(leftOut.join(', '), 400)}. The JSON report (\`--format json\`) has them._\n`;
    return out;
}
const NOT_LISTED = (listed) => ` (the JSON report, \`--format json\`, lists up to ${listed} per kind)`;
function policyBlock(r) {
    const shown = r.byPolicy.slice(0, 50);
    return {
        title: 'changes per policy',
        open: '\n| Policy | Newly allowed | Newly denied | Other changes |\n|---|---:|---:|---:|\n',
        rows: shown.map((p) => `| ${cell(p.policy)} | ${p.newlyAllowed} | ${p.newlyDenied} | ${p.changed} |\n`),
        total: r.byPolicy.length,
        more: (hidden) => `| …and ${hidden} more policies | | | |\n`,
        close: '',
    };
}
function changeBlock(r, kind, template) {
    const title = `${format_text_1.CHANGE_TITLES[kind]} (${r.counts.changed[kind]})`;
    return {
        title,
        open: `\n<details${kind === 'newly-allowed' ? ' open' : ''}><summary>${title}</summary>\n\n| Decided at | Run | Was | Now | Policies |\n|---|---|---|---|---|\n`,
        rows: r.changes[kind].map((run) => `${changeRow(run, template)}\n`),
        total: r.counts.changed[kind],
        more: (hidden) => `\n…and ${hidden} more${NOT_LISTED(r.listed)}.\n`,
        close: '\n</details>\n',
    };
}
function notReplayableBlock(r) {
    const title = `Not replayable (${r.counts.notReplayable})`;
    return {
        title,
        open: `\n<details><summary>${title}</summary>\n\n`,
        rows: r.notReplayable.map((n) => `- ${n.count} × ${cell(n.message, 500)}\n`),
        total: r.notReplayable.length,
        more: (hidden) => `- …and ${hidden} more reasons\n`,
        close: '\n</details>\n',
    };
}
/**
 * What the replay found, in a few words: "no archived run would be decided differently" only when
 * every run in the time range was replayed; a replay with gaps (damaged files, runs not replayable,
 * unreadable lines) says it is incomplete, and one that replayed nothing says nothing was checked.
 */
function markdownTitle(r) {
    const gaps = (0, replay_gaps_1.replayGaps)(r);
    if (r.counts.replayed === 0)
        return `nothing was replayed, so nothing was checked${gaps.length > 0 ? ` (${gaps.join(', ')})` : ''}`;
    const changed = (0, format_text_1.totalChanged)(r);
    if (gaps.length === 0)
        return changed === 0
            ? 'no archived run would be decided differently'
            : `${changed} archived run${changed === 1 ? '' : 's'} would be decided differently`;
    const found = changed === 0
        ? `no replayed run would be decided differently`
        : `${changed} replayed run${changed === 1 ? '' : 's'} would be decided differently`;
    return `replay incomplete (${gaps.join(', ')}): ${found}`;
}
/**
 * `--format markdown`: a pull-request comment. A summary table, the changes per policy, then each
 * kind of change in a collapsible section (newly allowed first and open). The comment stays under
 * `limit` (MARKDOWN_LIMIT): rows stop at a row boundary with the rest counted, and a section that
 * does not fit is left out and named; the counts of the summary are always complete.
 */
function formatMarkdown(r, opts = {}) {
    const limit = opts.limit ?? exports.MARKDOWN_LIMIT;
    const head = [
        `### preflight-gate replay: ${markdownTitle(r)}`,
        '',
        `${cell((0, format_text_1.headline)(r), 1000)}.`,
        '',
        '| Change | Runs |',
        '|---|---:|',
    ];
    for (const kind of compare_answers_1.CHANGE_KINDS)
        head.push(`| ${kind === 'newly-allowed' && r.counts.changed[kind] > 0 ? '⚠️ ' : ''}${format_text_1.CHANGE_TITLES[kind]} | ${r.counts.changed[kind]} |`);
    head.push(`| Unchanged | ${r.counts.unchanged} |`, `| Not replayable | ${r.counts.notReplayable} |`);
    if (r.counts.problems > 0)
        head.push(`| Unreadable archive lines | ${r.counts.problems} |`);
    if (r.counts.damagedFiles > 0) {
        head.push(`| ⚠️ Damaged archive files (replay incomplete) | ${r.counts.damagedFiles} |`, '');
        for (const d of r.damagedFiles.slice(0, 10))
            head.push(`> **Damaged:** ${cell(d.file, 300)}: ${cell(d.message, 500)}`);
        if (r.damagedFiles.length > 10)
            head.push(`> …and ${r.damagedFiles.length - 10} more damaged files`);
    }
    if (r.dependsOnUses)
        head.push('', `${r.dependsOnUses.count} run(s) answered as they did because of an exception's use count (${cell(r.dependsOnUses.rule, 1000)}).${r.dependsOnUses.runs.length > 0 ? ` Listed in the JSON report (\`--format json\`, \`dependsOnUses\`): ${r.dependsOnUses.runs.map((run) => `\`${run.decisionId}\``).join(', ')}.` : ''}`);
    if (r.counts.irreproducible > 0)
        head.push('', `> **Warning:** ${r.counts.irreproducible} run(s) decided by this very revision answer differently now: replay is not exact for them.`);
    const summaryText = `${head.join('\n')}\n`;
    const blocks = [];
    if (r.byPolicy.length > 0)
        blocks.push(policyBlock(r));
    for (const kind of compare_answers_1.CHANGE_KINDS)
        if (r.counts.changed[kind] > 0)
            blocks.push(changeBlock(r, kind, opts.runUrl));
    if (r.notReplayable.length > 0)
        blocks.push(notReplayableBlock(r));
    return `${summaryText}${fitBlocks(blocks, limit, summaryText.length)}`;
}
//# sourceMappingURL=format-markdown.js.map