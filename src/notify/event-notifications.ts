import type { LoadTrigger } from '../policy/runtime/policy-store';
import type { Mode } from '../policy/core/decision';
import type { KillswitchEvent } from '../state/state-event';
import type { Notification, NotifiedRun } from './notification';

/** The emergency stop engaged or released, as POST /events applied it (one replica applies each event). */
export function emergencyStopNotification(event: KillswitchEvent, now: Date): Notification {
  const at = event.changedAt.text;
  return event.engaged
    ? { kind: 'emergency-stop-engaged', time: now.toISOString(), title: `Emergency stop engaged by ${event.by}`, message: `Steadybit's emergency stop was engaged at ${at}: no experiment run may start until it is released.`, policies: [], by: event.by }
    : { kind: 'emergency-stop-released', time: now.toISOString(), title: `Emergency stop released by ${event.by}`, message: `Steadybit's emergency stop was released at ${at}: runs are decided by the policies again.`, policies: [], by: event.by };
}

/** A policy reload that was rejected: the set in use keeps serving. */
export function policyRejectedNotification(trigger: LoadTrigger, problems: readonly string[], revisionInUse: string | undefined, now: Date): Notification {
  const keeps = revisionInUse ? `revision ${revisionInUse} is still in use` : 'no policy set is in use, so every run is refused';
  return {
    kind: 'policy-rejected',
    time: now.toISOString(),
    title: 'A policy change was rejected',
    message: `The policy files changed (${trigger}) but are invalid, so they were not loaded; ${keeps}. Fix the files below.`,
    policies: [],
    problems: problems.slice(0, 10),
    revision: revisionInUse,
  };
}

/**
 * A run stopped while running, as the run guard reports it (docs/notifications.md). The guard
 * calls Notifier.notify with this; `policies` are those whose finding stopped it.
 */
export interface RunStop {
  run: NotifiedRun;
  reason: string;
  by: string;
  policies: ReadonlyArray<{ policy: string; mode: Mode; reasons: string[] }>;
  decisionId?: string;
  time: Date;
}

export function runStoppedNotification(stop: RunStop): Notification {
  const { run } = stop;
  return {
    kind: 'stopped',
    time: stop.time.toISOString(),
    title: `Run ${run.executionId ?? '(no id)'}${run.experimentKey ? ` of ${run.experimentKey}` : ''} stopped while running`,
    message: stop.reason,
    run,
    policies: stop.policies.map((p) => ({ ...p, result: 'deny' as const })),
    by: stop.by,
    ...(stop.decisionId ? { decisionId: stop.decisionId } : {}),
  };
}
