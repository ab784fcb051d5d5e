import { CHANGE_KINDS, type AnswerSummary } from './compare-answers';
import { CHANGE_TITLES, headline, totalChanged } from './format-text';
import type { ChangedRun, ReplayReport } from './replay-report';
import { runLabel, runUrl } from './run-label';

/** GitHub refuses comments over 65,536 characters; stay well below, with room for the closing lines. */
export const MARKDOWN_LIMIT = 60_000;

/** Text safe inside a table cell: no pipes or line breaks, markup characters escaped, long texts cut. */
export function cell(text: string, max = 300): string {
  const cut = text.length > max ? `${text.slice(0, max - 1)}…` : text;
  return cut.replace(/\\/g, '\\\\').replace(/[|`*_<>[\]]/g, (c) => `\\${c}`).replace(/\r?\n/g, ' ');
}

const answerCell = (a: AnswerSummary) => cell(`${a.status}${a.message ? ` ${a.message}` : ''}${a.modifications.length > 0 ? ` (modifications: ${JSON.stringify(a.modifications)})` : ''}`);

function runCell(run: ChangedRun, template: string | undefined): string {
  const url = runUrl(template, run);
  return url ? `[${cell(runLabel(run))}](${url})` : cell(runLabel(run));
}

function changeRow(run: ChangedRun, template: string | undefined): string {
  const policies = run.policies.map((p) => `${p.policy} ${p.before} → ${p.after}`).join(', ');
  return `| ${cell(run.at)} | ${runCell(run, template)} | ${answerCell(run.before)} | ${answerCell(run.after)} | ${cell(policies)} |`;
}

/**
 * `--format markdown`: a pull-request comment. A summary table, the changes per policy, then each
 * kind of change in a collapsible section (newly allowed first and open). Rows stop before the
 * comment would pass MARKDOWN_LIMIT; the counts above are always complete.
 */
export function formatMarkdown(r: ReplayReport, opts: { runUrl?: string; limit?: number } = {}): string {
  const limit = opts.limit ?? MARKDOWN_LIMIT;
  const changed = totalChanged(r);
  const title = changed === 0 ? 'no archived run would be decided differently' : `${changed} archived run${changed === 1 ? '' : 's'} would be decided differently`;
  const head: string[] = [`### preflight-gate replay: ${title}`, '', `${cell(headline(r), 1000)}.`, '', '| Change | Runs |', '|---|---:|'];
  for (const kind of CHANGE_KINDS) head.push(`| ${kind === 'newly-allowed' && r.counts.changed[kind] > 0 ? '⚠️ ' : ''}${CHANGE_TITLES[kind]} | ${r.counts.changed[kind]} |`);
  head.push(`| Unchanged | ${r.counts.unchanged} |`, `| Not replayable | ${r.counts.notReplayable} |`);
  if (r.counts.problems > 0) head.push(`| Unreadable archive lines | ${r.counts.problems} |`);
  if (r.counts.irreproducible > 0) head.push('', `> **Warning:** ${r.counts.irreproducible} run(s) decided by this very revision answer differently now: replay is not exact for them.`);
  if (r.byPolicy.length > 0) {
    head.push('', '| Policy | Newly allowed | Newly denied | Other changes |', '|---|---:|---:|---:|');
    for (const p of r.byPolicy.slice(0, 50)) head.push(`| ${cell(p.policy)} | ${p.newlyAllowed} | ${p.newlyDenied} | ${p.changed} |`);
    if (r.byPolicy.length > 50) head.push(`| …and ${r.byPolicy.length - 50} more policies | | | |`);
  }
  let out = `${head.join('\n')}\n`;
  const sections: string[] = [];
  for (const kind of CHANGE_KINDS) {
    const runs = r.changes[kind];
    if (runs.length > 0) sections.push(`<details${kind === 'newly-allowed' ? ' open' : ''}><summary>${CHANGE_TITLES[kind]} (${r.counts.changed[kind]})</summary>\n\n| Decided at | Run | Was | Now | Policies |\n|---|---|---|---|---|\n`);
    else continue;
    let rows = '';
    let shown = 0;
    for (const run of runs) {
      const row = `${changeRow(run, opts.runUrl)}\n`;
      if (out.length + sections.join('').length + rows.length + row.length + 400 > limit) break;
      rows += row;
      shown++;
    }
    const hidden = r.counts.changed[kind] - shown;
    sections[sections.length - 1] += `${rows}${hidden > 0 ? `\n…and ${hidden} more (the JSON report, \`--format json\`, lists up to ${r.listed} per kind).\n` : ''}\n</details>\n`;
  }
  if (r.notReplayable.length > 0) {
    const lines = r.notReplayable.map((n) => `- ${n.count} × ${cell(n.message, 500)}`).join('\n');
    sections.push(`<details><summary>Not replayable (${r.counts.notReplayable})</summary>\n\n${lines}\n\n</details>\n`);
  }
  out += sections.length > 0 ? `\n${sections.join('\n')}` : '';
  return out.length > limit ? `${out.slice(0, limit - 80)}\n\n…(cut at ${limit} characters)\n` : out;
}
