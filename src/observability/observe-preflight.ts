import type { ServerResponse } from 'node:http';
import type { Decision } from '../policy/core/decision';
import type { AuditLog } from './audit-log';
import { auditLevelOf, auditRecord, outcomeOf } from './audit-record';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

export interface ObserveDeps {
  metrics: Metrics;
  audit: AuditLog;
  logger: Logger;
  clock: () => Date;
  /** The revision of the policy set in use, for answers that made no decision. */
  currentRevision: () => string | undefined;
}

/** What the handler learnt while answering one POST /preflight; read once the answer is out. */
export interface PreflightAnswer {
  /** Set by the handler (also sent as X-Preflight-Decision-Id); `(none)` only when no id could be made, a 500. */
  decisionId: string;
  /** The parsed body, once its signature was verified. */
  body?: unknown;
  /** The decision, when one was made (allow/deny). */
  decision?: Decision;
  /** The message of an error answer. */
  errorMessage?: string;
}

/** nginx's code for "the client closed the connection before the answer": never sent, only recorded. */
export const CLIENT_CLOSED = 499;

/**
 * Starts observing one answer to POST /preflight, before anything else can fail. Once the answer
 * is out it counts it exactly once in preflight_decisions_total (200 allow, 403 deny, anything
 * else error), counts the policy results and writes its audit line. The handler fills in the
 * returned PreflightAnswer (its decision id first).
 */
export function observePreflight(deps: ObserveDeps): (res: ServerResponse) => PreflightAnswer {
  const countAndAudit = (res: ServerResponse, answer: PreflightAnswer, started: bigint) => {
    const answered = res.writableFinished;
    const status = answered ? res.statusCode : CLIENT_CLOSED;
    const { decision } = answer;
    const outcome = outcomeOf(status, decision);
    deps.metrics.decisions.inc({ decision: outcome });
    if (decision && outcome !== 'error') deps.metrics.countPolicyResults(decision.results);
    // The record (and its redaction) is only built when the audit log keeps it.
    if (!deps.audit.accepts(auditLevelOf(outcome, decision))) return;
    deps.audit.write(
      auditRecord(
        {
          decisionId: answer.decisionId,
          time: deps.clock(),
          status,
          decision,
          errorMessage: answered ? answer.errorMessage : 'the client closed the connection before the answer was sent',
          body: answer.body,
          revision: deps.currentRevision(),
          durationMs: Number(process.hrtime.bigint() - started) / 1e6,
        },
        deps.audit.redaction,
      ),
    );
  };
  return (res) => {
    const started = process.hrtime.bigint();
    const answer: PreflightAnswer = { decisionId: '(none)' };
    res.once('close', () => {
      try {
        countAndAudit(res, answer, started);
      } catch (err) {
        // The answer is already out; a full disk must not take the process (and every run after it) down.
        deps.logger.error('the audit line or metrics of an answer could not be written', {
          decisionId: answer.decisionId,
          status: res.statusCode,
          error: err instanceof Error ? err.message : String(err),
        });
      }
    });
    return answer;
  };
}
