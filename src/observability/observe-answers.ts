import type { AnswerSubscriber, PreflightRecord } from '../answer/answer-record';
import type { AuditLog } from './audit-log';
import { auditLevelOf, auditRecord, outcomeOf } from './audit-record';
import type { Logger } from '../common/logger';
import type { Metrics } from './metrics';

export interface ObserveDeps {
  metrics: Metrics;
  audit: AuditLog;
  logger: Logger;
}

/** nginx's code for "the client closed the connection before the answer": never sent, only recorded. */
export const CLIENT_CLOSED = 499;

/**
 * The first subscriber to each answer record (publish-answer.ts). A POST /preflight answer is
 * counted exactly once in preflight_decisions_total (200 allow, 403 deny, anything else error),
 * timed in preflight_request_duration_seconds (unless the client closed first), its policy
 * results counted and its audit line written; a POST /events answer is counted in
 * preflight_events_total{event, outcome}.
 */
export function observeAnswers(deps: ObserveDeps): AnswerSubscriber {
  // The label sets of the answers' durations, made once (a fixed set: the route's statuses).
  const durationLabels = new Map<number, { route: string; status: string }>();
  const durationOf = (status: number) => {
    let labels = durationLabels.get(status);
    if (!labels) durationLabels.set(status, (labels = { route: '/preflight', status: String(status) }));
    return labels;
  };
  const countAndAudit = (record: PreflightRecord) => {
    const { decision, status } = record;
    // An answer that went out (not one the client closed first) is timed, from its first byte read.
    if (status !== CLIENT_CLOSED)
      deps.metrics.requestDuration.observe(durationOf(status), record.timings.durationMs / 1000);
    const outcome = outcomeOf(status, decision);
    deps.metrics.countDecision(outcome);
    if (decision && outcome !== 'error') deps.metrics.countPolicyResults(decision.results);
    // The record (and its redaction) is only built when the audit log keeps it.
    if (!deps.audit.accepts(auditLevelOf(outcome, decision))) return;
    deps.audit.write(
      auditRecord(
        {
          decisionId: record.decisionId,
          time: record.timings.answeredAt,
          status,
          decision,
          errorMessage: record.errorMessage,
          body: record.body,
          revision: record.revision,
          durationMs: record.timings.durationMs,
        },
        deps.audit.redaction,
      ),
    );
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
      } catch (err) {
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
