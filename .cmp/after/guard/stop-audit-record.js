"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.stopAuditRecord = stopAuditRecord;
const audit_record_1 = require("../observability/audit-record");
/**
 * The audit line of a stop: the re-judgement as a decision's line is written (policies, findings,
 * target values masked as configured), with `"decision": "stopped"`, the cancel's status, the
 * stopping policy and the decision that had allowed the run.
 */
function stopAuditRecord(stop, judgement, payload, cancelStatus, durationMs, redaction) {
    const record = (0, audit_record_1.auditRecord)({
        decisionId: stop.decisionId,
        time: new Date(stop.at),
        status: 403,
        decision: judgement.decision,
        body: payload,
        revision: stop.revision,
        durationMs,
    }, redaction);
    record.decision = 'stopped';
    record.level = 'warn';
    record.status = cancelStatus;
    record.message = `stopped while running by policy "${stop.policy}": ${record.message}`;
    record.stoppedBy = stop.policy;
    record.allowedBy = stop.allowedBy;
    return record;
}
//# sourceMappingURL=stop-audit-record.js.map