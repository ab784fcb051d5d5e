import type { IncomingMessage, ServerResponse } from 'node:http';
import { describeFieldErrors, validatePreflightPayload } from '../payload/validate-payload';
import { evaluate } from '../policy/evaluate';
import type { PolicyStore } from '../policy/policy-store';
import type { PolicyBundle } from '../policy/compiled';
import type { Decision, PreflightPayload, StateSnapshot } from '../policy/types';
import type { Logger } from '../observability/logger';
import type { Metrics } from '../observability/metrics';
import type { AuditLog } from '../observability/audit-log';
import { observePreflight, type PreflightAnswer } from '../observability/observe-preflight';
import { timeRequest } from '../observability/request-timer';
import { errorBody, reportError } from './error-handler';
import { HttpError } from './http-error';
import { sendJson } from './send-json';
import { readSignedJson } from './signed-json-body';
import { turnBatch } from './turn-batch';
import { preflightAnswer } from './preflight-answer';
import type { DecisionArchive } from '../archive/decision-archive';
import { stateNeedsOf } from '../state/preflight-state';

export interface PreflightDeps {
  /** Only `current()` is used: app.ts may pass a view that adds built-in policies. */
  store: Pick<PolicyStore, 'current'>;
  secrets: readonly string[];
  bodyLimit: string | number;
  logger: Logger;
  metrics: Metrics;
  audit: AuditLog;
  clock: () => Date;
  newId: () => string;
  /** Loads the state facts the bundle's rules need (guardrails with memory); optional. */
  loadState?: (payload: PreflightPayload, bundle: PolicyBundle) => Promise<StateSnapshot | undefined>;
  /** Records every decision after its answer is sent (DECISION_ARCHIVE); optional. */
  archive?: DecisionArchive;
}

/** What a decision was made from, kept for the decision archive. */
interface Decided {
  decision: Decision;
  bundle: PolicyBundle;
  payload: PreflightPayload;
  now: Date;
  state: StateSnapshot | undefined;
}

export const PREFLIGHT_PATH = '/preflight';

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
export function isPreflightRequest(req: IncomingMessage): boolean {
  if (req.method !== 'POST' || req.url === undefined) return false;
  const path = splitUrl(req.url).path.toLowerCase();
  return path === PREFLIGHT_PATH || path === `${PREFLIGHT_PATH}/`;
}

/** `?explain=true` asks for the whole decision, every policy visited (also those out of scope). */
function wantsExplanation(url: string | undefined): boolean {
  const { query } = splitUrl(url ?? '');
  return query !== '' && new URLSearchParams(query).get('explain') === 'true';
}

/** Translates a Decision to Steadybit's answer: 200 with modifications, or 403 with the reason. */
function send(res: ServerResponse, decision: Decision, explain: boolean): void {
  res.setHeader('X-Preflight-Policy-Revision', decision.revision);
  const { status, body } = preflightAnswer(decision, explain);
  sendJson(res, status, body);
}

/**
 * POST /preflight as a plain node:http handler: the hot path of the service, called before every
 * experiment run, so it does not pay for Express's routing and response helpers (about 200 us a
 * request on the benchmark machine, see docs/performance.md). Everything else stays on Express.
 */
export function preflightHandler(deps: PreflightDeps): (req: IncomingMessage, res: ServerResponse) => void {
  const inTurn = turnBatch();
  const observe = observePreflight({ ...deps, currentRevision: () => deps.store.current()?.revision });

  const needsByBundle = new WeakMap<PolicyBundle, string[]>();
  const needsOf = (bundle: PolicyBundle) => {
    let needs = needsByBundle.get(bundle);
    if (!needs) needsByBundle.set(bundle, (needs = stateNeedsOf(bundle)));
    return needs;
  };

  const decide = async (req: IncomingMessage, answer: PreflightAnswer, explain: boolean): Promise<Decided> => {
    answer.body = await readSignedJson(req, deps);
    const checked = validatePreflightPayload(answer.body);
    if (!checked.ok) {
      throw new HttpError(400, `invalid preflight payload: ${describeFieldErrors(checked.errors)}`, { errors: checked.errors });
    }
    const bundle = deps.store.current();
    if (!bundle) throw new HttpError(503, 'no valid policy set is loaded, so no run may start; see /readyz and the service log');
    const payload = checked.payload;
    const state = deps.loadState ? await deps.loadState(payload, bundle) : undefined;
    // ?explain=true visits every policy, so the explanation also lists those skipped for their scope.
    // Requests read in the same turn of the loop are evaluated back to back, then answered (turn-batch.ts).
    let now = new Date(0);
    const decision = await inTurn(() => evaluate(bundle, payload, { now: (now = deps.clock()), decisionId: answer.decisionId, state, fullScan: explain }));
    return { decision, bundle, payload, now, state };
  };

  const answerPreflight = async (req: IncomingMessage, res: ServerResponse) => {
    let answer: PreflightAnswer | undefined;
    try {
      timeRequest(deps.metrics, PREFLIGHT_PATH, res);
      // observePreflight counts the answer and writes its audit line from this, errors included.
      answer = observe(res);
      answer.decisionId = deps.newId();
      res.setHeader('X-Preflight-Decision-Id', answer.decisionId);
      const explain = wantsExplanation(req.url);
      const decided = await decide(req, answer, explain);
      answer.decision = decided.decision;
      send(res, decided.decision, explain);
      // After the answer is out: the archive queues it and writes it later (decision-archive.ts).
      deps.archive?.record({ ...decided, payload: answer.body, needs: needsOf(decided.bundle), explain });
    } catch (err) {
      const error = reportError(err, PREFLIGHT_PATH, deps.logger);
      if (answer) answer.errorMessage = error.message;
      sendJson(res, error.status, errorBody(error));
    }
  };

  return (req, res) => {
    answerPreflight(req, res).catch((err: unknown) => {
      // Even the error answer failed (a log that cannot be written, say): cut the connection,
      // which Steadybit reads as a failed check. Nothing here may throw again.
      try {
        deps.logger.error('request failed', { path: PREFLIGHT_PATH, error: err instanceof Error ? err.stack : String(err) });
      } catch {
        // The log is what failed; the cut connection still tells Steadybit.
      } finally {
        res.destroy();
      }
    });
  };
}
