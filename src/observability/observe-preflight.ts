import type { RequestHandler, Response } from 'express';
import type { Decision } from '../policy/types';
import type { AuditLog } from './audit-log';
import { auditLevelOf, auditRecord, outcomeOf } from './audit-record';
import type { Logger } from './logger';
import type { Metrics } from './metrics';

export interface ObserveDeps {
  metrics: Metrics;
  audit: AuditLog;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  /** The revision of the policy set in use, for answers that made no decision. */
  currentRevision: () => string | undefined;
}

/** nginx's code for "the client closed the connection before the answer": never sent, only recorded. */
export const CLIENT_CLOSED = 499;

function message(res: Response): string | undefined {
  const error: unknown = res.locals.error;
  return typeof error === 'object' && error !== null && 'message' in error ? String(error.message) : undefined;
}

/**
 * The first handler of POST /preflight. It gives the request its decision id (also sent as
 * X-Preflight-Decision-Id, on errors too) and, once the answer is out, counts it exactly once in
 * preflight_decisions_total (200 allow, 403 deny, anything else error) and writes its audit line.
 * The route leaves its Decision in `res.locals.decision`; the error handler its error in `res.locals.error`.
 */
export function observePreflight(deps: ObserveDeps): RequestHandler {
  return (_req, res, next) => {
    const started = process.hrtime.bigint();
    const decisionId = deps.newId();
    res.locals.decisionId = decisionId;
    res.setHeader('X-Preflight-Decision-Id', decisionId);
    res.once('close', () => {
      try {
        countAndAudit();
      } catch (err) {
        // The answer is already out; a full disk must not take the process (and every run after it) down.
        deps.logger.error('the audit line or metrics of an answer could not be written', { decisionId, status: res.statusCode, error: err instanceof Error ? err.message : String(err) });
      }
    });
    const countAndAudit = () => {
      const answered = res.writableFinished;
      const status = answered ? res.statusCode : CLIENT_CLOSED;
      const decision = res.locals.decision as Decision | undefined;
      const outcome = outcomeOf(status, decision);
      deps.metrics.decisions.inc({ decision: outcome });
      if (decision && outcome !== 'error') {
        for (const r of decision.results) {
          if (r.result !== 'skipped') deps.metrics.policyResults.inc({ policy: r.policy, result: r.result, mode: r.mode });
        }
      }
      // The record (and its redaction) is only built when the audit log keeps it.
      if (!deps.audit.accepts(auditLevelOf(outcome, decision))) return;
      deps.audit.write(auditRecord({
        decisionId,
        time: deps.clock(),
        status,
        decision,
        errorMessage: answered ? message(res) : 'the client closed the connection before the answer was sent',
        body: res.locals.body,
        revision: deps.currentRevision(),
        durationMs: Number(process.hrtime.bigint() - started) / 1e6,
      }, deps.audit.redaction));
    };
    next();
  };
}
