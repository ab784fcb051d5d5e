"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CLIENT_CLOSED = void 0;
exports.observeAnswers = observeAnswers;
const audit_record_1 = require("./audit-record");
/** nginx's code for "the client closed the connection before the answer": never sent, only recorded. */
exports.CLIENT_CLOSED = 499;
/**
 * The first subscriber to each answer record (publish-answer.ts). A POST /preflight answer is
 * counted exactly once in preflight_decisions_total (200 allow, 403 deny, anything else error),
 * its policy results counted and its audit line written; a POST /events answer is counted in
 * preflight_events_total{event, outcome}.
 */
function observeAnswers(deps) {
    const countAndAudit = (record) => {
        const { decision, status } = record;
        const outcome = (0, audit_record_1.outcomeOf)(status, decision);
        deps.metrics.decisions.inc({ decision: outcome });
        if (decision && outcome !== 'error')
            deps.metrics.countPolicyResults(decision.results);
        // The record (and its redaction) is only built when the audit log keeps it.
        if (!deps.audit.accepts((0, audit_record_1.auditLevelOf)(outcome, decision)))
            return;
        deps.audit.write((0, audit_record_1.auditRecord)({
            decisionId: record.decisionId,
            time: record.timings.answeredAt,
            status,
            decision,
            errorMessage: record.errorMessage,
            body: record.body,
            revision: record.revision,
            durationMs: record.timings.durationMs,
        }, deps.audit.redaction));
    };
    return {
        name: 'the audit log and metrics',
        onAnswer(record) {
            if (record.route === '/events') {
                deps.metrics.events.inc({ event: record.event, outcome: record.outcome });
                return;
            }
            try {
                countAndAudit(record);
            }
            catch (err) {
                // The answer is already out; a full disk must not take the process (and every run after it) down.
                deps.logger.error('the audit line or metrics of an answer could not be written', {
                    decisionId: record.decisionId,
                    status: record.status,
                    error: err instanceof Error ? err.message : String(err),
                });
            }
        },
    };
}
//# sourceMappingURL=observe-answers.js.map