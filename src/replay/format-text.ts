import { CHANGE_KINDS, type AnswerSummary, type ChangeKind } from './compare-answers';
import type { ChangedRun, ReplayReport } from './replay-report';
import { nothingReplayed } from './replay-gaps';
import { runLabel } from './run-label';

export const CHANGE_TITLES: Record<ChangeKind, string> = {
  'newly-allowed': 'Newly allowed (a guardrail loosened)',
  'newly-denied': 'Newly denied',
  message: 'Message changed',
  modifications: 'Modifications changed',
  results: 'Policy results changed (same answer)',
};

export const answerLine = (a: AnswerSummary) =>
  `${a.status}${a.message ? `: ${a.message}` : ''}${a.modifications.length > 0 ? ` (modifications: ${JSON.stringify(a.modifications)})` : ''}`;

export const policyLine = (run: ChangedRun) =>
  run.policies.map((p) => `${p.policy} ${p.before} -> ${p.after}`).join(', ');

/** One sentence of what was replayed against what. */
export function headline(r: ReplayReport): string {
  const range =
    r.since || r.until
      ? ` decided ${r.since ? `from ${r.since}` : ''}${r.since && r.until ? ' ' : ''}${r.until ? `until ${r.until}` : ''}`
      : '';
  return `Replayed ${r.counts.replayed} archived decision${r.counts.replayed === 1 ? '' : 's'}${range} against the policies in ${r.policyDir} (revision ${r.revision})`;
}

export const totalChanged = (r: ReplayReport) => CHANGE_KINDS.reduce((n, k) => n + r.counts.changed[k], 0);

/** `--format text`: counts, then the changed runs (newly allowed first), per policy, and what could not be replayed. */
export function formatText(r: ReplayReport): string {
  const out: string[] = [`${headline(r)}.`, ''];
  const nothing = r.counts.replayed === 0 ? nothingReplayed(r) : '';
  if (nothing) out.splice(1, 0, `${nothing[0].toUpperCase()}${nothing.slice(1)}.`);
  const row = (label: string, n: number) => out.push(`  ${label.padEnd(40)} ${n}`);
  for (const kind of CHANGE_KINDS) row(CHANGE_TITLES[kind], r.counts.changed[kind]);
  row('Unchanged', r.counts.unchanged);
  row('Not replayable', r.counts.notReplayable);
  if (r.counts.outOfRange > 0) row('Outside --since/--until', r.counts.outOfRange);
  if (r.counts.problems > 0) row('Unreadable lines', r.counts.problems);
  if (r.counts.damagedFiles > 0) row('Damaged files (replay incomplete)', r.counts.damagedFiles);
  for (const kind of CHANGE_KINDS) {
    const runs = r.changes[kind];
    if (runs.length === 0) continue;
    out.push(
      '',
      `${CHANGE_TITLES[kind]} (${r.counts.changed[kind]}${runs.length < r.counts.changed[kind] ? `, first ${runs.length} listed` : ''}):`,
    );
    for (const run of runs) {
      out.push(`  ${run.at}  ${runLabel(run)}  decision ${run.decisionId}`);
      out.push(`    was ${answerLine(run.before)}`, `    now ${answerLine(run.after)}`);
      if (run.policies.length > 0) out.push(`    policies: ${policyLine(run)}`);
    }
  }
  if (r.byPolicy.length > 0) {
    out.push('', 'By policy:');
    for (const p of r.byPolicy)
      out.push(
        `  ${p.policy}: newly allowed ${p.newlyAllowed}, newly denied ${p.newlyDenied}, other changes ${p.changed}`,
      );
  }
  if (r.notReplayable.length > 0) {
    out.push('', `Not replayable (${r.counts.notReplayable}):`);
    for (const n of r.notReplayable)
      out.push(`  ${n.count} x ${n.message}`, `    e.g. ${n.examples.slice(0, 3).map(runLabel).join('; ')}`);
  }
  if (r.damagedFiles.length > 0) {
    out.push('', `Damaged files (${r.counts.damagedFiles}): the runs after the place named were not replayed:`);
    for (const d of r.damagedFiles) out.push(`  ${d.file}: ${d.message}`);
  }
  if (r.problems.length > 0) {
    out.push('', `Unreadable lines (${r.counts.problems}):`);
    for (const p of r.problems) out.push(`  ${p.count} x ${p.message} (first at ${p.examples[0]})`);
  }
  if (r.dependsOnUses) {
    const d = r.dependsOnUses;
    out.push(
      '',
      `${d.count} run(s) answered as they did because of an exception's use count (${d.rule}):`,
      ...d.runs.map(
        (run) =>
          `  ${run.decisionId} at ${run.at} (${run.experimentKey ?? 'no experiment key'}): ${run.allowed ? 'allowed' : 'denied'} with uses ${Object.entries(
            run.usesRecorded,
          )
            .map(([n, c]) => `${n}=${c}`)
            .join(', ')}`,
      ),
    );
  }
  if (r.counts.irreproducible > 0)
    out.push(
      '',
      `WARNING: ${r.counts.irreproducible} run(s) decided by revision ${r.revision} answer differently now: replay is not exact for them.`,
    );
  return `${out.join('\n')}\n`;
}
