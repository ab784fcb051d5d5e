import { doorFacts } from '../policy/facts/facts';
import type { ArchivedAnswer, ArchiveRecord } from '../archive/archive-record';
import { preflightAnswer } from '../policy/core/preflight-answer';
import { describeFieldErrors, validatePreflightPayload } from '../payload/validate-payload';
import type { PolicyBundle } from '../policy/core/compiled';
import { decide } from '../policy/engine/decide';
import type { Need } from '../policy/facts/need';
import { archivedResults, type ArchivedResult } from '../archive/archived-results';
import { describeNeed, missingFacts } from './facts-coverage';
import { runNeeds, runNeedsPlan, type RunNeedsPlan } from './run-needs';
import { createContext } from '../policy/engine/create-context';
import type { EvaluationContext } from '../policy/core/evaluation-context';
import { trapMaskedAttributes } from './masked-attribute-traps';
import { guardView } from '../guard/guard-view';
import { runningFacts } from '../guard/judge-running-run';
import { usesDependence, type UsesDependence } from './uses-dependence';
import { unrecordedSilences } from './unrecorded-silences';

export type Redecided =
  | { kind: 'decided'; answer: ArchivedAnswer; results: ArchivedResult[]; dependsOnUses?: UsesDependence }
  | { kind: 'not-replayable'; reason: string };

/** A proposed policy set as replay uses it: the bundle (with the record's built-ins) and its needs. */
export interface ReplayBundle {
  bundle: PolicyBundle;
  needs: readonly Need[];
  /** What its scopes and each policy's rules read (run-needs.ts), worked out once for every record. */
  runNeeds: RunNeedsPlan;
  /** Its guarded part (guard-view.ts), for the guard's stops (`whileRunning` records); built when first needed. */
  whileRunning?: ReplayBundle;
}

export const replayBundle = (bundle: PolicyBundle): ReplayBundle => ({
  bundle,
  needs: bundle.needs,
  runNeeds: runNeedsPlan(bundle),
});

/** The guarded part of a proposed set, built once per set: replay decides many records on one. */
function whileRunningBundle(proposed: ReplayBundle): ReplayBundle {
  proposed.whileRunning ??= replayBundle(guardView(proposed.bundle));
  return proposed.whileRunning;
}

/**
 * The facts this run's decision under `proposed` needs and the record lacks, and the sources whose
 * silences it did not record. When the record answers every need of the whole set (a proposal that
 * reads nothing new: the common case), so it does each run's part of them, and which policies
 * apply to the run is not worked out here (the decision does it once).
 */
function whatIsLacking(
  proposed: ReplayBundle,
  record: ArchiveRecord,
  context: () => EvaluationContext,
): { missing: Need[]; unreadSilences: string[] } {
  const all = proposed.runNeeds.all;
  if (missingFacts(all, record.facts).length === 0 && unrecordedSilences(all, record.facts.signals).length === 0)
    return { missing: [], unreadSilences: [] };
  const needed = runNeeds(proposed.bundle, proposed.runNeeds, context());
  return {
    missing: missingFacts(needed, record.facts),
    unreadSilences: unrecordedSilences(needed, record.facts.signals),
  };
}

/**
 * Decides an archived run again under `proposed`: its payload, at its decision time, with its
 * recorded facts and decision id, the way the route decided it (?explain included). Not
 * replayable when the archive lacks something the decision needs: a fact the proposed set asks
 * for, for this run (a policy that applies to it, or a scope placing it), that was not gathered,
 * or a masked attribute value the decision read.
 */
export function redecide(given: ReplayBundle, record: ArchiveRecord): Redecided {
  // A stop by the guard is judged again on the proposed set's guarded part, as the guard would (docs/guard.md).
  const proposed = record.whileRunning ? whileRunningBundle(given) : given;
  const checked = validatePreflightPayload(record.payload);
  if (!checked.ok)
    return {
      kind: 'not-replayable',
      reason: `the archived payload is not a valid preflight payload: ${describeFieldErrors(checked.errors)}`,
    };
  const { needs: _recorded, ...recorded } = record.facts;
  // Only the facts the run's decision reads: a memory rule of a policy scoped to another team
  // leaves this run replayable from what the archive holds.
  const at = new Date(record.at);
  const lacking = whatIsLacking(proposed, record, () =>
    createContext(proposed.bundle, checked.payload, recorded, at, record.id),
  );
  if (lacking.missing.length > 0) {
    return {
      kind: 'not-replayable',
      reason: `the proposed policies need state facts the archive did not record for this run (its policy set did not need them): ${lacking.missing.map(describeNeed).join(', ')}`,
    };
  }
  const unread = lacking.unreadSilences;
  if (unread.length > 0) {
    return {
      kind: 'not-replayable',
      reason: `the archive lists silenced alerts of alertmanager ${unread.map((s) => `"${s}"`).join(', ')} without the silences' times (recorded before the gate read them), so whether a silence began after the run started cannot be told`,
    };
  }
  const reads = trapMaskedAttributes(checked.payload, record.masked);
  // An exception the archive's set did not have (no use count recorded) had waived no run then.
  // A record whose service could not count uses (in-memory state) says so instead: it is kept, so
  // the replay does not waive where production refused to.
  const countsUses =
    proposed.needs.some((n) => n.kind === 'exception-uses') &&
    recorded.state?.exceptionUses === undefined &&
    recorded.state?.exceptionUsesUnknown === undefined;
  const counted = countsUses ? { ...recorded, state: { ...recorded.state, exceptionUses: {} } } : recorded;
  // A stop recorded before the set had a deadMan holds no silentSince: as the guard, none was silent before.
  const facts = record.whileRunning ? runningFacts(counted) : doorFacts(counted);
  const decision = decide(proposed.bundle, checked.payload, facts, at, {
    decisionId: record.id,
    fullScan: record.explain,
  });
  if (reads.keys.size > 0) {
    return {
      kind: 'not-replayable',
      reason: `the decision reads the target attribute${reads.keys.size === 1 ? '' : 's'} ${[...reads.keys].join(', ')}, whose values the archive masks (DECISION_ARCHIVE_MASK_ATTRIBUTES)`,
    };
  }
  const dependsOnUses = usesDependence(proposed.bundle, checked.payload, facts, decision, {
    now: at,
    decisionId: record.id,
  });
  return {
    kind: 'decided',
    answer: preflightAnswer(decision, record.explain),
    results: archivedResults(decision.results),
    ...(dependsOnUses ? { dependsOnUses } : {}),
  };
}
