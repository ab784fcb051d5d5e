import type { Facts } from '../policy/facts/facts';
import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision, PreflightPayload } from '../policy/core/decision';
import type { EventLabel, EventOutcome } from './event-outcome';

/** When an answer was out and how long it took, from the request's first byte read to the response closed. */
export interface AnswerTimings {
  readonly answeredAt: Date;
  readonly durationMs: number;
}

/** What a preflight decision was made from; present in the record once its answer was handed to the socket. */
export interface DecidedPreflight {
  readonly decision: Decision;
  readonly bundle: PolicyBundle;
  readonly payload: PreflightPayload;
  readonly now: Date;
  readonly facts: Facts;
  /** `?explain=true`: the decision visited every policy. */
  readonly explain: boolean;
}

/** One answer to POST /preflight, errors and answers the client did not wait for included. */
export interface PreflightRecord {
  readonly route: '/preflight';
  /** Also sent as X-Preflight-Decision-Id; `(none)` only when no id could be made (a 500). */
  readonly decisionId: string;
  /** The status sent, or 499 (CLIENT_CLOSED) when the client closed the connection first. */
  readonly status: number;
  /** The parsed body, once its signature was verified (the payload reference the audit line and archive keep). */
  readonly body?: unknown;
  /** The decision, when one was made (allow/deny). */
  readonly decision?: Decision;
  /** The decision with what it was made from, once its answer was sent (archive, notifications, guard). */
  readonly decided?: DecidedPreflight;
  /** The message of an error answer, or why no answer reached the client. */
  readonly errorMessage?: string;
  /** The revision of the policy set in use when the answer was out. */
  readonly revision?: string;
  readonly timings: AnswerTimings;
}

/** One answer to POST /events. */
export interface EventRecord {
  readonly route: '/events';
  /** The status sent, or 499 when the client closed the connection first. */
  readonly status: number;
  /** The payload's event name when it is one of Steadybit's, else `other`. */
  readonly event: EventLabel;
  /** What the event did, or (for an error answer) what its status says. */
  readonly outcome: EventOutcome;
  readonly timings: AnswerTimings;
}

/** What was decided, built once after each answer and handed, frozen, to every subscriber. */
export type AnswerRecord = PreflightRecord | EventRecord;

/**
 * Told of each answer once it is out. A subscriber may not change the record (it is frozen), and
 * it cannot delay or change the answer: it is called after the response closed, and what it
 * throws or rejects is logged, the next subscriber called all the same (publish-answer.ts).
 */
export interface AnswerSubscriber {
  /** Named in the log line when it fails. */
  readonly name: string;
  onAnswer(record: AnswerRecord): void | Promise<void>;
}

/** Freezes a record and its timings (and the decided part); the decision and payload are typed read-only. */
export function freezeRecord<R extends AnswerRecord>(record: R): R {
  Object.freeze(record.timings);
  if (record.route === '/preflight' && record.decided) Object.freeze(record.decided);
  return Object.freeze(record);
}
