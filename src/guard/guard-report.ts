import type { AttributeRedaction } from '../redaction/attribute-redaction';
import { targetRedactor } from '../redaction/target-redaction';
import type { GuardReport, GuardStop } from './guard-stop';
import type { GuardedRun } from './guard-store';
import type { PolicyStop, RunJudgement } from './judge-running-run';

/** What a finding says besides the run and its judgement: the first policy, its reason, every policy, when. */
export type Found = Pick<GuardStop, 'policy' | 'reason' | 'stoppedBy' | 'at'>;
/** The run's environment by its Steadybit name, or why the name cannot be known (stops only). */
export type NamedEnvironment = Pick<GuardStop, 'environmentName' | 'environmentNameUnknown'>;

/** The record of a guard finding over `run` (a stop or a report): the run's execution, what was found, the judgement's decision. */
export function guardRecord(
  run: GuardedRun,
  judgement: RunJudgement,
  found: Found,
  named: NamedEnvironment = {},
): GuardStop {
  const e = run.payload.execution;
  return {
    executionId: run.executionId,
    experimentKey: e?.experimentKey,
    team: e?.teamKey,
    environment: e?.environment,
    ...named,
    policy: found.policy,
    reason: found.reason,
    stoppedBy: found.stoppedBy,
    decisionId: judgement.decision.id,
    allowedBy: run.decisionId,
    at: found.at,
    revision: judgement.decision.revision,
  };
}

/** What a report's subscribers get for a finding that stops nothing: the run, the policy and its reason, target values masked as in a stop. */
export function guardReportOf(
  run: GuardedRun,
  finding: PolicyStop,
  judgement: RunJudgement,
  redaction: AttributeRedaction,
): GuardReport {
  const text = targetRedactor(run.payload, redaction) ?? ((t: string) => t);
  const reason = text(finding.reason);
  return guardRecord(run, judgement, {
    policy: finding.policy,
    reason,
    stoppedBy: [{ ...finding, reason }],
    at: judgement.decision.evaluatedAt,
  });
}
