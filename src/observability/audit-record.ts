import type { PreflightPayload } from '../payload/types';
import type { Decision } from '../policy/types';

/** The audit line of one decision (fields documented in docs/audit-log.md). */
export function auditRecord(decision: Decision, payload: PreflightPayload, durationMs: number) {
  const e = payload.execution;
  return {
    decisionId: decision.id,
    time: decision.evaluatedAt,
    executionId: e.id,
    experimentKey: e.experimentKey,
    team: e.teamKey,
    environment: e.environment,
    decision: decision.allowed ? 'allow' : 'deny',
    summary: decision.message,
    reasons: decision.results.filter((r) => r.result !== 'pass' && r.result !== 'skipped').flatMap((r) => r.reasons.map((reason) => `[${r.policy}] ${reason}`)),
    policies: decision.results.map((r) => ({ policy: r.policy, result: r.result, mode: r.mode, reasons: r.reasons, exception: r.exception })),
    modifications: decision.modifications,
    conflicts: decision.conflicts,
    revision: decision.revision,
    durationMs: Math.round(durationMs * 1000) / 1000,
  };
}
