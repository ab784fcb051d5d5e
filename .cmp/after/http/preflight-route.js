"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.preflightIdHeader = exports.isPreflightRequest = exports.PREFLIGHT_PATH = void 0;
exports.isPreflightTarget = isPreflightTarget;
exports.preflightHandler = preflightHandler;
const validate_payload_1 = require("../payload/validate-payload");
const decide_1 = require("../policy/engine/decide");
const preflight_recorder_1 = require("./preflight-recorder");
const request_timer_1 = require("../observability/request-timer");
const error_handler_1 = require("./error-handler");
const http_error_1 = require("./http-error");
const send_json_1 = require("./send-json");
const signed_json_body_1 = require("./signed-json-body");
const request_framing_1 = require("./request-framing");
const turn_batch_1 = require("./turn-batch");
const preflight_answer_1 = require("../policy/core/preflight-answer");
const settle_exception_uses_1 = require("../approvals/settle-exception-uses");
const state_store_1 = require("../state/state-store");
exports.PREFLIGHT_PATH = '/preflight';
/** The overlap settling, a store that cannot answer (or a lock not had) denying the run with 503. */
async function settleOverlapOr503(settle, ...args) {
    try {
        return await settle(...args);
    }
    catch (err) {
        if (!(err instanceof state_store_1.StateUnavailableError))
            throw err;
        throw new http_error_1.HttpError(503, `the runs in progress cannot be checked one at a time (${err.message}), so a run that noOverlap rules read is denied`);
    }
}
/**
 * The path and query of a request URL, as Express read them: the origin form (`/preflight?x`,
 * a `#fragment` cut off) or the absolute form (`http://host/preflight`).
 */
function splitUrl(url) {
    if (!url.startsWith('/')) {
        try {
            const absolute = new URL(url);
            return { path: absolute.pathname, query: absolute.search.slice(1) };
        }
        catch {
            return { path: url, query: '' };
        }
    }
    const hash = url.indexOf('#');
    const target = hash === -1 ? url : url.slice(0, hash);
    const query = target.indexOf('?');
    return query === -1 ? { path: target, query: '' } : { path: target.slice(0, query), query: target.slice(query + 1) };
}
/** POST /preflight, matched as Express matched it: in any case, with or without one trailing slash. */
function isPreflightTarget(method, url) {
    if (method !== 'POST' || url === undefined)
        return false;
    const path = splitUrl(url).path.toLowerCase();
    return path === exports.PREFLIGHT_PATH || path === `${exports.PREFLIGHT_PATH}/`;
}
const isPreflightRequest = (req) => isPreflightTarget(req.method, req.url);
exports.isPreflightRequest = isPreflightRequest;
/**
 * The decision id for an answer the HTTP parser forces before any route runs (headers it cannot
 * read, a Transfer-Encoding it refuses): POST /preflight answers carry one, as every answer of
 * the route does. No audit line is written for those (there is no request to record).
 */
const preflightIdHeader = (newId) => (method, target) => isPreflightTarget(method, target) ? { 'X-Preflight-Decision-Id': newId() } : {};
exports.preflightIdHeader = preflightIdHeader;
/** `?explain=true` asks for the whole decision, every policy visited (also those out of scope). */
function wantsExplanation(url) {
    const { query } = splitUrl(url ?? '');
    return query !== '' && new URLSearchParams(query).get('explain') === 'true';
}
/** Translates a Decision to Steadybit's answer: 200 with modifications, or 403 with the reason. */
function send(res, decision, explain) {
    res.setHeader('X-Preflight-Policy-Revision', decision.revision);
    const { status, body } = (0, preflight_answer_1.preflightAnswer)(decision, explain);
    (0, send_json_1.sendJson)(res, status, body);
}
/**
 * POST /preflight as a plain node:http handler: the hot path of the service, called before every
 * experiment run, so it does not pay for Express's routing and response helpers (about 200 us a
 * request on the benchmark machine: docs/decisions/0002-node-http-preflight-route.md). Everything else stays on Express.
 */
function preflightHandler(deps) {
    const inTurn = (0, turn_batch_1.turnBatch)();
    const record = (0, preflight_recorder_1.preflightRecorder)({ ...deps, currentRevision: () => deps.store.current()?.revision });
    /** settleExceptionUses with the store's take; a store that cannot count denies the run (503). */
    const settleUses = async (first, bundle, now, redecide) => {
        try {
            return await (0, settle_exception_uses_1.settleExceptionUses)(first, bundle, now, redecide, deps.takeExceptionUses);
        }
        catch (err) {
            if (!(err instanceof state_store_1.StateUnavailableError))
                throw err;
            throw new http_error_1.HttpError(503, `the use of an exception with maxUses cannot be counted (${err.message}), so the run it would waive is denied`);
        }
    };
    const decideRequest = async (req, res, answer, explain) => {
        // Bad framing (a Transfer-Encoding, a declared length over BODY_LIMIT, ...) is answered here,
        // with the decision id and an audit line like every other answer, and the connection closed.
        const problem = (0, request_framing_1.framingProblem)(req, deps.bodyLimit);
        if (problem) {
            res.setHeader('Connection', 'close');
            throw problem;
        }
        answer.body = await (0, signed_json_body_1.readSignedJson)(req, res, deps);
        const checked = (0, validate_payload_1.validatePreflightPayload)(answer.body);
        if (!checked.ok) {
            throw new http_error_1.HttpError(400, `invalid preflight payload: ${(0, validate_payload_1.describeFieldErrors)(checked.errors)}`, {
                errors: checked.errors,
            });
        }
        const bundle = deps.store.current();
        if (!bundle)
            throw new http_error_1.HttpError(503, 'no valid policy set is loaded, so no run may start; see /readyz and the service log');
        const payload = checked.payload;
        // Facts first (asynchronous, only what the bundle's rules need), then the pure decision.
        const now = deps.clock();
        const gathered = await deps.gather(bundle, payload, now);
        if (!gathered.ok)
            throw (0, error_handler_1.factsUnavailableError)(gathered.unavailable);
        // ?explain=true visits every policy, so the explanation also lists those skipped for their scope.
        // Requests read in the same turn of the loop are decided back to back, then answered (turn-batch.ts).
        const decideWith = (facts) => (0, decide_1.decide)(bundle, payload, facts, now, { decisionId: answer.decisionId, fullScan: explain });
        const first = { decision: await inTurn(() => decideWith(gathered.facts)), facts: gathered.facts };
        // A run an exception with maxUses waived is allowed only once its use is taken (approvals.md).
        const finish = (d) => settleUses(d, bundle, now, decideWith);
        // With noOverlap rules, an allowed run is decided again and kept under the overlap lock (settle-overlap.ts).
        const { decision, facts } = deps.settleOverlap
            ? await settleOverlapOr503(deps.settleOverlap, first, bundle, payload, now, decideWith, finish)
            : await finish(first);
        return { decision, bundle, payload, now, facts, explain };
    };
    const answerPreflight = async (req, res) => {
        let answer;
        try {
            (0, request_timer_1.timeRequest)(deps.metrics, exports.PREFLIGHT_PATH, res);
            // The answer's record is built from this once the response closed, errors included.
            answer = record(res);
            answer.decisionId = deps.newId();
            res.setHeader('X-Preflight-Decision-Id', answer.decisionId);
            const explain = wantsExplanation(req.url);
            const decided = await decideRequest(req, res, answer, explain);
            answer.decision = decided.decision;
            send(res, decided.decision, explain);
            // The archive, notifications and the guard read it from the record, after the answer is out.
            answer.decided = decided;
        }
        catch (err) {
            const error = (0, error_handler_1.reportError)(err, exports.PREFLIGHT_PATH, deps.logger);
            if (answer)
                answer.errorMessage = error.message;
            (0, send_json_1.sendJson)(res, error.status, (0, error_handler_1.errorBody)(error));
        }
    };
    return (req, res) => {
        answerPreflight(req, res).catch((err) => {
            // Even the error answer failed (a log that cannot be written, say): cut the connection,
            // which Steadybit reads as a failed check. Nothing here may throw again.
            try {
                deps.logger.error('request failed', {
                    path: exports.PREFLIGHT_PATH,
                    error: err instanceof Error ? err.stack : String(err),
                });
            }
            catch {
                // The log is what failed; the cut connection still tells Steadybit.
            }
            finally {
                res.destroy();
            }
        });
    };
}
//# sourceMappingURL=preflight-route.js.map