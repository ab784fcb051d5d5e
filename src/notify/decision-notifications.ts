import type { AttributeRedaction } from '../redaction/attribute-redaction';
import { targetRedactor, type Redactor } from '../redaction/target-redaction';
import type { Facts } from '../policy/facts/facts';
import type { Decision, PolicyResult, PreflightPayload } from '../policy/core/decision';
import type { Notification, NotificationKind, NotifiedPolicy, NotifiedRun } from './notification';
import { runLink } from './run-link';

/** What the route hands over after the answer: the decision and what it was made from. */
export interface DecidedRun {
  decision: Decision;
  payload: PreflightPayload;
  facts: Facts;
}

export interface DecisionNotifyOptions {
  /** Target values are masked exactly as in the audit log (AUDIT_REDACT_ATTRIBUTES). */
  redaction: AttributeRedaction;
  /** NOTIFY_RUN_URL, a template with {executionId}, {experimentKey}, ...; no link without it. */
  runUrl?: string;
  /** NOTIFY_EXCEPTION_HELP: how to ask for an exception, said with every denial. */
  exceptionHelp: string;
}

/** The run as a person finds it in Steadybit. */
export function notifiedRun(
  payload: PreflightPayload,
  facts: Facts,
  runUrl: string | undefined,
  decisionId?: string,
): NotifiedRun {
  const e = payload.execution;
  const known = e.environment === undefined ? undefined : facts.environments?.[e.environment];
  const run: NotifiedRun = {
    executionId: e.id,
    experimentKey: e.experimentKey,
    experimentName: e.name,
    team: e.teamKey,
    environment: e.environment,
    environmentName: known && 'name' in known ? known.name : undefined,
    environmentNameUnknown: known && 'unknown' in known ? known.unknown : undefined,
    startedBy: e.createdBy?.name ?? e.createdBy?.username,
  };
  return { ...run, url: runLink(runUrl, run, decisionId) };
}

function notifiedPolicy(r: PolicyResult, text: Redactor): NotifiedPolicy {
  return {
    policy: r.policy,
    mode: r.mode,
    result: r.result,
    reasons: r.reasons.map(text),
    ...(r.exception ? { exception: r.exception } : {}),
  };
}

const runName = (run: NotifiedRun) =>
  `Run ${run.executionId ?? '(no id)'}${run.experimentKey ? ` of ${run.experimentKey}` : ''}`;
const names = (results: readonly PolicyResult[]) => results.map((r) => r.policy).join(', ');

/**
 * The notifications one decision gives: `denied` for a denial; for an allowed run `waived` when an
 * exception waived a policy and `warned` when a policy in warn mode found something (both can
 * come from one run). A clean allow and audit-mode findings give none (audit mode only logs).
 */
export function decisionNotifications(decided: DecidedRun, options: DecisionNotifyOptions): Notification[] {
  const { decision, payload, facts } = decided;
  const text: Redactor = targetRedactor(payload, options.redaction) ?? ((t) => t);
  const run = notifiedRun(payload, facts, options.runUrl, decision.id);
  const base = { time: decision.evaluatedAt, decisionId: decision.id, run, revision: decision.revision };
  const make = (
    kind: NotificationKind,
    title: string,
    results: PolicyResult[],
    extra: Partial<Notification> = {},
  ): Notification => ({
    kind,
    title,
    message: text(decision.message),
    policies: results.map((r) => notifiedPolicy(r, text)),
    ...base,
    ...extra,
  });
  if (!decision.allowed) {
    const denying = decision.results.filter((r) => r.result === 'deny');
    const title = denying.length > 0 ? `${runName(run)} denied by ${names(denying)}` : `${runName(run)} denied`;
    return [make('denied', title, denying, { exceptionHelp: options.exceptionHelp })];
  }
  const out: Notification[] = [];
  const waived = decision.results.filter((r) => r.exception !== undefined);
  if (waived.length > 0)
    out.push(make('waived', `${runName(run)} allowed: ${names(waived)} waived by an exception`, waived));
  const warned = decision.results.filter((r) => r.result === 'warn');
  if (warned.length > 0)
    out.push(make('warned', `${runName(run)} allowed with warnings from ${names(warned)}`, warned));
  return out;
}
