import { CHANGE_KINDS, type AnswerSummary, type ChangeKind } from './compare-answers';
import { CHANGE_TITLES, headline, totalChanged } from './format-text';
import { replayGaps } from './replay-gaps';
import type { ChangedRun, ReplayReport } from './replay-report';
import { runLabel, runUrl } from './run-label';

/** GitHub refuses comments over 65,536 characters; stay well below, with room for the closing lines. */
export const MARKDOWN_LIMIT = 60_000;

/** Text safe inside a table cell: no pipes or line breaks, markup characters escaped, long texts cut. */
export function cell(text: string, max = 300): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return cut
    .replace(/\\/g, '\\\\')
    .replace(/[|`*_<>[\]]/g, (c) => `\\${c}`)
    .replace(/\r?\n/g, ' ');
}

const answerCell = (a: AnswerSummary) =>
  cell(
    `${a.status}${a.message ? ` ${a.message}` : ''}${a.modifications.length > 0 ? ` (modifications: ${JSON.stringify(a.modifications)})` : ''}`,
  );

function runCell(run: ChangedRun, template: string | undefined): string {
  const url = runUrl(template, run);
  return url ? `[${cell(runLabel(run))}](${url})` : cell(runLabel(run));
}

function changeRow(run: ChangedRun, template: string | undefined): string {
  const policies = run.policies.map((p) => `${p.policy} ${p.before} → ${p.after}`).join(', ');
  return `| ${cell(run.at)} | ${runCell(run, template)} | ${answerCell(run.before)} | ${answerCell(run.after)} | ${cell(policies)} |`;
}

/** A block of the comment: its opening, rows and closing; rows are kept or left out whole. */
interface Block {
  title: string;
  open: string;
  rows: string[];
  /** How many rows there are in all (more than `rows` when the report lists only some). */
  total: number;
  /** The line saying how many rows are not shown, given that count. */
  more: (hidden: number) => string;
  close: string;
}

/** The longest "…and N more" line and the note on left-out sections, kept free in every budget. */
const RESERVE = 600;

/**
 * The blocks in order, each with as many whole rows as fit in `limit` characters; a block whose
 * opening and first row do not fit is left out whole and named in a closing note. Never cuts inside a row,
 * a table or a `<details>` section.
 */
function fitBlocks(blocks: readonly Block[], limit: number, used: number): string {
  let out = '';
  const leftOut: string[] = [];
  for (const block of blocks) {
    const frame = block.open.length + block.close.length;
    if (used + out.length + frame + RESERVE > limit) {
      leftOut.push(block.title);
      continue;
    }
    let rows = '';
    let shown = 0;
    for (const row of block.rows) {
      if (used + out.length + frame + rows.length + row.length + RESERVE > limit) break;
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

const NOT_LISTED = (listed: number) => ` (the JSON report, \`--format json\`, lists up to ${listed} per kind)`;

function policyBlock(r: ReplayReport): Block {
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

function changeBlock(r: ReplayReport, kind: ChangeKind, template: string | undefined): Block {
  const title = `${CHANGE_TITLES[kind]} (${r.counts.changed[kind]})`;
  return {
    title,
    open: `\n<details${kind === 'newly-allowed' ? ' open' : ''}><summary>${title}</summary>\n\n| Decided at | Run | Was | Now | Policies |\n|---|---|---|---|---|\n`,
    rows: r.changes[kind].map((run) => `${changeRow(run, template)}\n`),
    total: r.counts.changed[kind],
    more: (hidden) => `\n…and ${hidden} more${NOT_LISTED(r.listed)}.\n`,
    close: '\n</details>\n',
  };
}

function notReplayableBlock(r: ReplayReport): Block {
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
export function markdownTitle(r: ReplayReport): string {
  const gaps = replayGaps(r);
  if (r.counts.replayed === 0)
    return `nothing was replayed, so nothing was checked${gaps.length > 0 ? ` (${gaps.join(', ')})` : ''}`;
  const changed = totalChanged(r);
  if (gaps.length === 0)
    return changed === 0
      ? 'no archived run would be decided differently'
      : `${changed} archived run${changed === 1 ? '' : 's'} would be decided differently`;
  const found =
    changed === 0
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
export function formatMarkdown(r: ReplayReport, opts: { runUrl?: string; limit?: number } = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const head: string[] = [
    `### preflight-gate replay: ${markdownTitle(r)}`,
    '',
    `${cell(headline(r), 1000)}.`,
    '',
    '| Change | Runs |',
    '|---|---:|',
  ];
  for (const kind of CHANGE_KINDS)
    head.push(
      `| ${kind === 'newly-allowed' && r.counts.changed[kind] > 0 ? '⚠️ ' : ''}${CHANGE_TITLES[kind]} | ${r.counts.changed[kind]} |`,
    );
  head.push(`| Unchanged | ${r.counts.unchanged} |`, `| Not replayable | ${r.counts.notReplayable} |`);
  if (r.counts.problems > 0) head.push(`| Unreadable archive lines | ${r.counts.problems} |`);
  if (r.counts.damagedFiles > 0) {
    head.push(`| ⚠️ Damaged archive files (replay incomplete) | ${r.counts.damagedFiles} |`, '');
    for (const d of r.damagedFiles.slice(0, 10))
      head.push(`> **Damaged:** ${cell(d.file, 300)}: ${cell(d.message, 500)}`);
    if (r.damagedFiles.length > 10) head.push(`> …and ${r.damagedFiles.length - 10} more damaged files`);
  }
  if (r.dependsOnUses)
    head.push(
      '',
      `${r.dependsOnUses.count} run(s) answered as they did because of an exception's use count (${cell(r.dependsOnUses.rule, 1000)}).${r.dependsOnUses.runs.length > 0 ? ` Listed in the JSON report (\`--format json\`, \`dependsOnUses\`): ${r.dependsOnUses.runs.map((run) => `\`${run.decisionId}\``).join(', ')}.` : ''}`,
    );
  if (r.counts.irreproducible > 0)
    head.push(
      '',
      `> **Warning:** ${r.counts.irreproducible} run(s) decided by this very revision answer differently now: replay is not exact for them.`,
    );
  const summaryText = `${head.join('\n')}\n`;
  const blocks: Block[] = [];
  if (r.byPolicy.length > 0) blocks.push(policyBlock(r));
  for (const kind of CHANGE_KINDS) if (r.counts.changed[kind] > 0) blocks.push(changeBlock(r, kind, opts.runUrl));
  if (r.notReplayable.length > 0) blocks.push(notReplayableBlock(r));
  return `${summaryText}${fitBlocks(blocks, limit, summaryText.length)}`;
}
