import type { ServerResponse } from 'node:http';
import type { Decision } from '../policy/core/decision';
import { CLIENT_CLOSED } from '../observability/observe-answers';
import { type DecidedPreflight, freezeRecord } from '../answer/answer-record';
import type { PublishAnswer } from '../answer/publish-answer';

/** What the handler learns while answering one POST /preflight; frozen into its record once the answer is out. */
export interface PreflightAnswer {
  /** Set by the handler (also sent as X-Preflight-Decision-Id); `(none)` only when no id could be made, a 500. */
  decisionId: string;
  /** The parsed body, once its signature was verified. */
  body?: unknown;
  /** The decision, when one was made (allow/deny). */
  decision?: Decision;
  /** Set once the decision's answer was handed to the socket. */
  decided?: DecidedPreflight;
  /** The message of an error answer. */
  errorMessage?: string;
}

export interface RecorderDeps {
  clock: () => Date;
  /** The revision of the policy set in use, for answers that made no decision. */
  currentRevision: () => string | undefined;
  publish: PublishAnswer;
}

/**
 * Starts recording one answer to POST /preflight, before anything else can fail. Once the
 * response closed (sent, or the client went away) the one record of the answer is built, frozen
 * and published, exactly once. The handler fills in the returned PreflightAnswer (its decision id first).
 */
export function preflightRecorder(deps: RecorderDeps): (res: ServerResponse) => PreflightAnswer {
  return (res) => {
    const started = process.hrtime.bigint();
    const answer: PreflightAnswer = { decisionId: '(none)' };
    res.once('close', () => {
      const answered = res.writableFinished;
      deps.publish(
        freezeRecord({
          route: '/preflight',
          decisionId: answer.decisionId,
          status: answered ? res.statusCode : CLIENT_CLOSED,
          body: answer.body,
          decision: answer.decision,
          decided: answer.decided,
          errorMessage: answered ? answer.errorMessage : 'the client closed the connection before the answer was sent',
          revision: deps.currentRevision(),
          timings: { answeredAt: deps.clock(), durationMs: Number(process.hrtime.bigint() - started) / 1e6 },
        }),
      );
    });
    return answer;
  };
}
