import type { AttributeRedaction } from '../redaction/attribute-redaction';
import { targetRedactor } from '../redaction/target-redaction';
import type { GuardReport } from './guard-stop';
import type { GuardedRun } from './guard-store';
import type { PolicyStop, RunJudgement } from './judge-running-run';

/** What a report's subscribers get for a finding that stops nothing: the run, the policy and its reason, target values masked as in a stop. */
export function guardReportOf(
  run: GuardedRun,
  finding: PolicyStop,
  judgement: RunJudgement,
  redaction: AttributeRedaction,
): GuardReport {
  const text = targetRedactor(run.payload, redaction) ?? ((t: string) => t);
  const e = run.payload.execution;
  return {
    executionId: run.executionId,
    experimentKey: e?.experimentKey,
    team: e?.teamKey,
    environment: e?.environment,
    policy: finding.policy,
    reason: text(finding.reason),
    stoppedBy: [{ ...finding, reason: text(finding.reason) }],
    decisionId: judgement.decision.id,
    allowedBy: run.decisionId,
    at: judgement.decision.evaluatedAt,
    revision: judgement.decision.revision,
  };
}
