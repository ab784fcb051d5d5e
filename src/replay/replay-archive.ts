import { USES_DEPENDENCE_RULE } from './uses-dependence';
import type { ArchiveRecord } from '../archive/archive-record';
import type { PolicyBundle } from '../policy/core/compiled';
import {
  builtInPolicies,
  EMERGENCY_STOP_POLICY,
  withBuiltIns as joinBuiltIns,
} from '../policy/compile/built-in-policies';
import { archiveLines } from './archive-lines';
import type { ArchiveStream } from './archive-sources';
import { compareAnswers } from './compare-answers';
import { changedKeys, modificationChanges } from './modification-changes';
import { redecide, replayBundle, type ReplayBundle } from './redecide';
import { ReplayTally, runRef, type ReplayReport } from './replay-report';

export interface ReplayOptions {
  streams: readonly ArchiveStream[];
  archive: string;
  policyDir: string;
  bundle: PolicyBundle;
  since?: Date;
  until?: Date;
  /** Runs listed per kind of change (counts are always complete). */
  listed: number;
  /** Called for each problem and run that cannot be replayed, as met (the CLI warns on stderr). */
  warn?: (where: string, message: string) => void;
}

/** The built-in policies a record names (EMERGENCY_STOP_POLICY=enforce), put in front of the proposed set as the service does. */
function withBuiltIns(bundle: PolicyBundle, names: readonly string[]): PolicyBundle | string {
  if (names.length === 0) return bundle;
  const unknown = names.filter((n) => n !== EMERGENCY_STOP_POLICY);
  if (unknown.length > 0)
    return `the archive names built-in policies this version does not have: ${unknown.join(', ')}`;
  return joinBuiltIns(bundle, builtInPolicies('enforce'));
}

/**
 * Replays an archive against a proposed policy set: every record in the time range is decided
 * again (redecide.ts) and compared with what was answered. Streams the archive; holds one bundle
 * per distinct set of built-ins and a bounded report.
 */
export async function replayArchive(opts: ReplayOptions): Promise<ReplayReport> {
  const tally = new ReplayTally({
    archive: opts.archive,
    policyDir: opts.policyDir,
    revision: opts.bundle.revision,
    since: opts.since?.toISOString(),
    until: opts.until?.toISOString(),
    listed: opts.listed,
  });
  if (opts.bundle.exceptions.some((e) => e.maxUses !== undefined))
    tally.report.dependsOnUses = { rule: USES_DEPENDENCE_RULE, count: 0, runs: [] };
  const bundles = new Map<string, ReplayBundle | string>();
  const bundleFor = (record: ArchiveRecord) => {
    const key = record.builtIns.join('\n');
    let found = bundles.get(key);
    if (found === undefined) {
      const built = withBuiltIns(opts.bundle, record.builtIns);
      bundles.set(key, (found = typeof built === 'string' ? built : replayBundle(built)));
    }
    return found;
  };
  const since = opts.since?.getTime() ?? -Infinity;
  const until = opts.until?.getTime() ?? Infinity;

  for await (const line of archiveLines(opts.streams, opts.since)) {
    if (line.kind === 'damaged') {
      tally.damaged({ file: line.file, line: line.line, message: line.message });
      continue;
    }
    if (line.kind === 'problem') {
      tally.problem(line.where, line.message);
      opts.warn?.(line.where, line.message);
      continue;
    }
    const { record } = line;
    tally.report.counts.records++;
    const at = Date.parse(record.at);
    if (at < since || at >= until) {
      tally.report.counts.outOfRange++;
      continue;
    }
    const proposed = bundleFor(record);
    const redecided =
      typeof proposed === 'string' ? { kind: 'not-replayable' as const, reason: proposed } : redecide(proposed, record);
    if (redecided.kind === 'not-replayable') {
      tally.notReplayable(record, redecided.reason);
      opts.warn?.(line.where, `run ${record.id} cannot be replayed: ${redecided.reason}`);
      continue;
    }
    tally.replayed(record);
    if (redecided.dependsOnUses) tally.dependsOnUses(record, redecided.dependsOnUses);
    const sameRevision = record.revision === opts.bundle.revision;
    const comparison = compareAnswers(record, redecided, {
      proposed: opts.bundle.revision,
      recorded: record.revision,
      policyDir: opts.policyDir,
    });
    if (comparison.same && (comparison.exact || !sameRevision)) {
      tally.report.counts.unchanged++;
      continue;
    }
    const changed = comparison.same
      ? {
          kind: 'results' as const,
          before: { status: record.answer.status, message: '', modifications: [] },
          after: { status: record.answer.status, message: '', modifications: [] },
          policies: [],
        }
      : comparison;
    // The policies behind changed modifications are named whatever else changed in an allowed run
    // (a reworded warning and a new value together are a 'message' change).
    if ((changed.kind === 'modifications' || changed.kind === 'message') && typeof proposed !== 'string') {
      changed.policies.push(
        ...modificationChanges(
          proposed.bundle,
          redecided.results,
          changedKeys(changed.before.modifications, changed.after.modifications),
          changed.policies,
        ),
      );
    }
    tally.changed(
      {
        ...runRef(record),
        kind: changed.kind,
        before: changed.before,
        after: changed.after,
        policies: changed.policies,
      },
      sameRevision,
    );
    if (sameRevision)
      opts.warn?.(
        line.where,
        `run ${record.id}: the policy revision that decided it (${record.revision}) answers differently now; replay is not exact for this run (please report it)`,
      );
  }
  return tally.finish();
}
