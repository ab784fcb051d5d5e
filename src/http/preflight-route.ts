import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeFieldErrors, validatePreflightPayload } from '../payload/validate-payload';
import { decide } from '../policy/engine/decide';
import type { Facts } from '../policy/facts/facts';
import type { Gathered } from '../policy/core/fact-source';
import type { PolicyStore } from '../policy/runtime/policy-store';
import type { PolicyBundle } from '../policy/core/compiled';
import type { Decision, PreflightPayload } from '../policy/core/decision';
import type { Logger } from '../common/logger';
import { preflightRecorder, type PreflightAnswer } from './preflight-recorder';
import { errorBody, factsUnavailableError, reportError } from './error-handler';
import { HttpError } from './http-error';
import { sendJson } from './send-json';
import { readSignedJson, type SignedBodyOptions } from './signed-json-body';
import { framingProblem } from './request-framing';
import { turnBatch } from './turn-batch';
import { preflightAnswer } from '../policy/core/preflight-answer';
import { settleExceptionUses, type TakeUses } from '../approvals/settle-exception-uses';
import { StateUnavailableError } from '../state/state-store';
import type { DecidedPreflight } from '../answer/answer-record';
import type { PublishAnswer } from '../answer/publish-answer';
import type { SettleOverlap } from '../guard/settle-overlap';

export interface PreflightDeps extends SignedBodyOptions {
  /** Only `current()` is used: create-app.ts passes the view that adds the built-in policies. */
  store: Pick<PolicyStore, 'current'>;
  logger: Logger;
  clock: () => Date;
  newId: () => string;
  /** Gathers the facts the bundle's rules need (factGatherer over the app's fact sources). */
  gather: (bundle: PolicyBundle, payload: PreflightPayload, now: Date) => Promise<Gathered>;
  /** Takes uses of exceptions with maxUses (the state store); without it such an exception never waives a run. */
  takeExceptionUses?: TakeUses;
  /** Decides the runs of a set with noOverlap rules one at a time, kept before they are answered (the guard). */
  settleOverlap?: SettleOverlap;
  /**
   * Hands the one record of each answer, once it is out, to its subscribers (audit and metrics,
   * the archive, notifications, the guard: publish-answer.ts); none can delay or change the answer.
   */
  publish: PublishAnswer;
}

export const PREFLIGHT_PATH = '/preflight';
const DECISION_ID_HEADER = 'X-Preflight-Decision-Id';

/** The overlap settling, a store that cannot answer (or a lock not had) denying the run with 503. */
async function settleOverlapOr503(settle: SettleOverlap, ...args: Parameters<SettleOverlap>) {
  try {
    return await settle(...args);
  } catch (err) {
    if (!(err instanceof StateUnavailableError)) throw err;
    throw new HttpError(
      503,
      `the runs in progress cannot be checked one at a time (${err.message}), so a run that noOverlap rules read is denied`,
    );
  }
}

/**
 * The path and query of a request URL, as Express read them: the origin form (`/preflight?x`,
 * a `#fragment` cut off) or the absolute form (`http://host/preflight`).
 */
function splitUrl(url: string): { path: string; query: string } {
  if (!url.startsWith('/')) {
    try {
      const absolute = new URL(url);
      return { path: absolute.pathname, query: absolute.search.slice(1) };
    } catch {
      return { path: url, query: '' };
    }
  }
  const hash = url.indexOf('#');
  const target = hash === -1 ? url : url.slice(0, hash);
  const query = target.indexOf('?');
  return query === -1 ? { path: target, query: '' } : { path: target.slice(0, query), query: target.slice(query + 1) };
}

/** POST /preflight, matched as Express matched it: in any case, with or without one trailing slash. */
export function isPreflightTarget(method: string | undefined, url: string | undefined): boolean {
  if (method !== 'POST' || url === undefined) return false;
  const path = splitUrl(url).path.toLowerCase();
  return path === PREFLIGHT_PATH || path === `${PREFLIGHT_PATH}/`;
}

export const isPreflightRequest = (req: IncomingMessage): boolean => isPreflightTarget(req.method, req.url);

/**
 * The decision id for an answer the HTTP parser forces before any route runs (headers it cannot
 * read, a Transfer-Encoding it refuses): POST /preflight answers carry one, as every answer of
 * the route does. No audit line is written for those (there is no request to record).
 */
export const preflightIdHeader =
  (newId: () => string) =>
  (method: string, target: string): Record<string, string> =>
    isPreflightTarget(method, target) ? { [DECISION_ID_HEADER]: newId() } : {};

/** `?explain=true` asks for the whole decision, every policy visited (also those out of scope). */
function wantsExplanation(url: string | undefined): boolean {
  const { query } = splitUrl(url ?? '');
  return query !== '' && new URLSearchParams(query).get('explain') === 'true';
}

/** Translates a Decision to Steadybit's answer: 200 with modifications, or 403 with the reason. */
function send(res: ServerResponse, idHeader: readonly string[], decision: Decision, explain: boolean): void {
  const { status, body } = preflightAnswer(decision, explain);
  sendJson(res, status, body, [...idHeader, 'X-Preflight-Policy-Revision', decision.revision]);
}

/**
 * POST /preflight as a plain node:http handler: the hot path of the service, called before every
 * experiment run, so it does not pay for Express's routing and response helpers (about 200 us a
 * request on the benchmark machine: docs/decisions/0002-node-http-preflight-route.md). Everything else stays on Express.
 */
export function preflightHandler(deps: PreflightDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const inTurn = turnBatch();
  const record = preflightRecorder({ ...deps, currentRevision: () => deps.store.current()?.revision });

  /** settleExceptionUses with the store's take; a store that cannot count denies the run (503). */
  const settleUses = async (
    first: { decision: Decision; facts: Facts },
    bundle: PolicyBundle,
    now: Date,
    redecide: (facts: Facts) => Decision,
  ) => {
    try {
      return await settleExceptionUses(first, bundle, now, redecide, deps.takeExceptionUses);
    } catch (err) {
      if (!(err instanceof StateUnavailableError)) throw err;
      throw new HttpError(
        503,
        `the use of an exception with maxUses cannot be counted (${err.message}), so the run it would waive is denied`,
      );
    }
  };

  const decideRequest = async (
    req: IncomingMessage,
    res: ServerResponse,
    answer: PreflightAnswer,
    explain: boolean,
  ): Promise<DecidedPreflight> => {
    // Bad framing (a Transfer-Encoding, a declared length over BODY_LIMIT, ...) is answered here,
    // with the decision id and an audit line like every other answer, and the connection closed.
    const problem = framingProblem(req, deps.bodyLimit);
    if (problem) {
      res.setHeader('Connection', 'close');
      throw problem;
    }
    answer.body = await readSignedJson(req, res, deps);
    const checked = validatePreflightPayload(answer.body);
    if (!checked.ok) {
      throw new HttpError(400, `invalid preflight payload: ${describeFieldErrors(checked.errors)}`, {
        errors: checked.errors,
      });
    }
    const bundle = deps.store.current();
    if (!bundle)
      throw new HttpError(503, 'no valid policy set is loaded, so no run may start; see /readyz and the service log');
    const payload = checked.payload;
    // Facts first (asynchronous, only what the bundle's rules need), then the pure decision.
    const now = deps.clock();
    const gathered = await deps.gather(bundle, payload, now);
    if (!gathered.ok) throw factsUnavailableError(gathered.unavailable);
    // ?explain=true visits every policy, so the explanation also lists those skipped for their scope.
    // Requests read in the same turn of the loop are decided back to back, then answered (turn-batch.ts).
    const decideWith = (facts: Facts) =>
      decide(bundle, payload, facts, now, { decisionId: answer.decisionId, fullScan: explain });
    const first = { decision: await inTurn(() => decideWith(gathered.facts)), facts: gathered.facts };
    // A run an exception with maxUses waived is allowed only once its use is taken (approvals.md).
    const finish = (d: { decision: Decision; facts: Facts }) => settleUses(d, bundle, now, decideWith);
    // With noOverlap rules, an allowed run is decided again and kept under the overlap lock (settle-overlap.ts).
    const { decision, facts } = deps.settleOverlap
      ? await settleOverlapOr503(deps.settleOverlap, first, bundle, payload, now, decideWith, finish)
      : await finish(first);
    return { decision, bundle, payload, now, facts, explain };
  };

  const answerPreflight = async (req: IncomingMessage, res: ServerResponse) => {
    let answer: PreflightAnswer | undefined;
    // Every answer carries the decision id, once one was made (sent with the answer's other headers).
    let idHeader: string[] = [];
    try {
      // The answer's record is built from this once the response closed, errors included; its
      // duration is also the one preflight_request_duration_seconds observes (observe-answers.ts).
      answer = record(res);
      answer.decisionId = deps.newId();
      idHeader = [DECISION_ID_HEADER, answer.decisionId];
      const explain = wantsExplanation(req.url);
      const decided = await decideRequest(req, res, answer, explain);
      answer.decision = decided.decision;
      send(res, idHeader, decided.decision, explain);
      // The archive, notifications and the guard read it from the record, after the answer is out.
      answer.decided = decided;
    } catch (err) {
      const error = reportError(err, PREFLIGHT_PATH, deps.logger);
      if (answer) answer.errorMessage = error.message;
      sendJson(res, error.status, errorBody(error), idHeader);
    }
  };

  return (req, res) => {
    answerPreflight(req, res).catch((err: unknown) => {
      // Even the error answer failed (a log that cannot be written, say): cut the connection,
      // which Steadybit reads as a failed check. Nothing here may throw again.
      try {
        deps.logger.error('request failed', {
          path: PREFLIGHT_PATH,
          error: err instanceof Error ? err.stack : String(err),
        });
      } catch {
        // The log is what failed; the cut connection still tells Steadybit.
      } finally {
        res.destroy();
      }
    });
  };
}
