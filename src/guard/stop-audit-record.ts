import type { AttributeRedaction } from '../redaction/attribute-redaction';
import { auditRecord, type AuditRecord } from '../observability/audit-record';
import type { GuardStop } from './guard-stop';
import type { RunJudgement } from './judge-running-run';

/**
 * The audit line of a stop: the re-judgement as a decision's line is written (policies, findings,
 * target values masked as configured), with `"decision": "stopped"`, the cancel's status, the
 * stopping policy and the decision that had allowed the run.
 */
export function stopAuditRecord(
  stop: GuardStop,
  judgement: RunJudgement,
  payload: unknown,
  cancelStatus: number,
  durationMs: number,
  redaction: AttributeRedaction,
): AuditRecord {
  const record = auditRecord(
    {
      decisionId: stop.decisionId,
      time: new Date(stop.at),
      status: 403,
      decision: judgement.decision,
      body: payload,
      revision: stop.revision,
      durationMs,
    },
    redaction,
  );
  record.decision = 'stopped';
  record.level = 'warn';
  record.status = cancelStatus;
  record.message = `stopped while running by policy "${stop.policy}": ${record.message}`;
  record.stoppedBy = stop.policy;
  record.allowedBy = stop.allowedBy;
  return record;
}
