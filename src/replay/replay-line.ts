import type { ArchiveRecord } from '../archive/archive-record';
import type { PolicyBundle } from '../policy/core/compiled';
import {
  builtInPolicies,
  EMERGENCY_STOP_POLICY,
  withBuiltIns as joinBuiltIns,
} from '../policy/compile/built-in-policies';
import type { ArchiveLine } from './read-records';
import { compareAnswers } from './compare-answers';
import { changedKeys, modificationChanges } from './modification-changes';
import { redecide, replayBundle, type ReplayBundle } from './redecide';
import { runRef, type ChangedRun, type RunRef } from './replay-report';
import type { UsesDependence } from './uses-dependence';

/**
 * What replaying one archive line found, in the order the report takes it (replay-archive.ts):
 * plain data, so a worker thread can send it. `at` is the record's decision time ('' for a
 * problem or a damaged file), by which the lines of several writers are merged.
 */
export type ReplayedLine =
  | { kind: 'damaged'; at: ''; file: string; line: number; message: string }
  | { kind: 'problem'; at: ''; where: string; message: string }
  | { kind: 'out-of-range'; at: string }
  | { kind: 'not-replayable'; at: string; where: string; id: string; run: RunRef; reason: string }
  | {
      kind: 'replayed';
      at: string;
      where: string;
      id: string;
      revision: string;
      dependsOnUses?: RunRef & UsesDependence;
      /** Absent when unchanged. */
      changed?: ChangedRun;
    };

/** What replaying a line depends on besides the line: the proposed set and the time range. */
export interface LineReplayer {
  bundle: PolicyBundle;
  policyDir: string;
  /** Milliseconds; -Infinity and Infinity when open. */
  since: number;
  until: number;
  /** One proposed set per distinct set of built-ins a record names, made when first needed. */
  bundles: Map<string, ReplayBundle | string>;
}

export function lineReplayer(bundle: PolicyBundle, policyDir: string, since?: Date, until?: Date): LineReplayer {
  return {
    bundle,
    policyDir,
    since: since?.getTime() ?? -Infinity,
    until: until?.getTime() ?? Infinity,
    bundles: new Map(),
  };
}

/** The built-in policies a record names (EMERGENCY_STOP_POLICY=enforce), put in front of the proposed set as the service does. */
function withBuiltIns(bundle: PolicyBundle, names: readonly string[]): PolicyBundle | string {
  if (names.length === 0) return bundle;
  const unknown = names.filter((n) => n !== EMERGENCY_STOP_POLICY);
  if (unknown.length > 0)
    return `the archive names built-in policies this version does not have: ${unknown.join(', ')}`;
  return joinBuiltIns(bundle, builtInPolicies('enforce'));
}

function bundleFor(replayer: LineReplayer, record: ArchiveRecord): ReplayBundle | string {
  const key = record.builtIns.join('\n');
  let found = replayer.bundles.get(key);
  if (found === undefined) {
    const built = withBuiltIns(replayer.bundle, record.builtIns);
    replayer.bundles.set(key, (found = typeof built === 'string' ? built : replayBundle(built)));
  }
  return found;
}

/**
 * One archive line replayed: a record in the time range decided again under the proposed set
 * (redecide.ts) and compared with what was answered.
 */
export function replayLine(replayer: LineReplayer, line: ArchiveLine): ReplayedLine {
  if (line.kind === 'damaged') return { ...line, at: '' };
  if (line.kind === 'problem') return { ...line, at: '' };
  const { record, where } = line;
  const at = Date.parse(record.at);
  if (at < replayer.since || at >= replayer.until) return { kind: 'out-of-range', at: record.at };
  const proposed = bundleFor(replayer, record);
  const redecided =
    typeof proposed === 'string' ? { kind: 'not-replayable' as const, reason: proposed } : redecide(proposed, record);
  if (redecided.kind === 'not-replayable')
    return {
      kind: 'not-replayable',
      at: record.at,
      where,
      id: record.id,
      run: runRef(record),
      reason: redecided.reason,
    };
  const replayed: Extract<ReplayedLine, { kind: 'replayed' }> = {
    kind: 'replayed',
    at: record.at,
    where,
    id: record.id,
    revision: record.revision,
  };
  if (redecided.dependsOnUses) replayed.dependsOnUses = { ...runRef(record), ...redecided.dependsOnUses };
  const revision = replayer.bundle.revision;
  const sameRevision = record.revision === revision;
  const comparison = compareAnswers(record, redecided, {
    proposed: revision,
    recorded: record.revision,
    policyDir: replayer.policyDir,
  });
  if (comparison.same && (comparison.exact || !sameRevision)) return replayed;
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
  replayed.changed = {
    ...runRef(record),
    kind: changed.kind,
    before: changed.before,
    after: changed.after,
    policies: changed.policies,
  };
  return replayed;
}
