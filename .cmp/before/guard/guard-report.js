"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.guardRecord = guardRecord;
exports.guardReportOf = guardReportOf;
const target_redaction_1 = require("../redaction/target-redaction");
/** The record of a guard finding over `run` (a stop or a report): the run's execution, what was found, the judgement's decision. */
function guardRecord(run, judgement, found, named = {}) {
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
function guardReportOf(run, finding, judgement, redaction) {
    const text = (0, target_redaction_1.targetRedactor)(run.payload, redaction) ?? ((t) => t);
    const reason = text(finding.reason);
    return guardRecord(run, judgement, {
        policy: finding.policy,
        reason,
        stoppedBy: [{ ...finding, reason }],
        at: judgement.decision.evaluatedAt,
    });
}
//# sourceMappingURL=guard-report.js.map