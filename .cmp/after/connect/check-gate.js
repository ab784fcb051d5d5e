"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.checkGate = checkGate;
const node_crypto_1 = require("node:crypto");
const connect_probe_1 = require("../policy/engine/connect-probe");
const sign_1 = require("../signature/sign");
const TIMEOUT_MS = 10_000;
/** An event name the gate verifies, then ignores (state-event.ts): /events checked without changing any state. */
const CHECK_EVENT = 'preflight-gate.connect-check';
function causeOf(err) {
    const e = err;
    if (e?.name === 'TimeoutError' || e?.name === 'AbortError')
        return 'no answer within the time allowed';
    return String(e?.cause?.code ?? e?.cause?.message ?? e?.message ?? err);
}
/** One signed POST, as Steadybit signs it: X-SB-Signature over exactly the bytes sent. */
async function signedPost(url, body, secret, deps) {
    const raw = JSON.stringify(body);
    try {
        const res = await (deps.fetch ?? fetch)(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json', 'x-sb-signature': (0, sign_1.signatureHeader)(secret, raw) },
            body: raw,
            redirect: 'manual',
            signal: AbortSignal.timeout(deps.timeoutMs ?? TIMEOUT_MS),
        });
        const text = await res.text();
        let message = text.slice(0, 300).replace(/\s+/g, ' ').trim();
        try {
            const parsed = JSON.parse(text);
            if (typeof parsed?.message === 'string')
                message = parsed.message;
        }
        catch {
            // Not JSON (a proxy's error page, say): its first characters are the message.
        }
        return {
            status: res.status,
            message,
            location: res.headers.get('location') ?? undefined,
            decisionId: res.headers.get('x-preflight-decision-id') ?? undefined,
        };
    }
    catch (err) {
        return { error: causeOf(err) };
    }
}
/** What an answer that is not the expected one means, for the message. */
function refusal(url, answer, fromPreflight) {
    if (answer.status >= 300 && answer.status < 400)
        return `${url} answered a redirect (HTTP ${answer.status}${answer.location ? ` to ${answer.location}` : ''}): Steadybit does not follow it; give the final address as --gate-url`;
    const said = `${url} answered HTTP ${answer.status}${answer.message === '' ? '' : `: ${answer.message}`}`;
    // A proxy or another service answers without the header; only the gate's own 401 is about the secret.
    if (fromPreflight && answer.decisionId === undefined)
        return `${said}, without the X-Preflight-Decision-Id header every answer of preflight-gate carries: no preflight-gate answers at this address`;
    if (fromPreflight && answer.status === 401)
        return `${url} refused the signature made with the secret given to connect (HTTP 401: ${answer.message}): the gate does not hold that secret, so Steadybit's calls would be refused too`;
    return said;
}
/**
 * Before connect writes anything: signs a sample preflight with the secret being configured, a run
 * shaped like `--probe`'s (named `preflight-gate probe <nonce>`, one wait step, which the gate
 * denies by design naming the nonce: connect-probe.ts), and POSTs it to `<base>/preflight`; with
 * the custom webhook, also a signed event the gate ignores to `<base>/events`. Only the gate's
 * probe mark passes the preflight, and only if the same run signed with another secret is refused
 * (401); only an answer of 200 passes the event.
 */
async function checkGate(opts, deps = {}) {
    const nonce = deps.nonce?.() ?? (0, node_crypto_1.randomBytes)(8).toString('hex');
    const time = (deps.now?.() ?? new Date()).toISOString();
    const preflightUrl = `${opts.base}/preflight`;
    const run = {
        event: 'experiment.execution.preflight',
        time,
        execution: {
            name: `${connect_probe_1.PROBE_NAME_PREFIX}${nonce}`,
            ...(opts.team ? { teamKey: opts.team } : {}),
            ...(opts.environment ? { environment: opts.environment } : {}),
            state: 'CREATED',
            steps: [{ id: (0, node_crypto_1.randomUUID)(), state: 'CREATED', ignoreFailure: false, parameters: { duration: '1s' } }],
        },
    };
    const decided = await signedPost(preflightUrl, run, opts.secret, deps);
    if ('error' in decided)
        return { outcome: 'unreachable', message: `cannot reach ${preflightUrl} from here (${decided.error})` };
    if (!decided.message.includes((0, connect_probe_1.probeMark)(nonce))) {
        const allowed = decided.status >= 200 && decided.status < 300;
        return {
            outcome: 'refused',
            message: allowed
                ? `${preflightUrl} allowed a sample probe run (HTTP ${decided.status}): no preflight-gate of this version answers there`
                : refusal(preflightUrl, decided, true),
        };
    }
    // The same run signed with another secret must be refused: a gate that decides it verifies no
    // signature (WEBHOOK_SECRET unset), and any secret would have passed the check above.
    const forged = await signedPost(preflightUrl, run, (0, node_crypto_1.randomBytes)(24).toString('base64'), deps);
    if ('error' in forged)
        return { outcome: 'unreachable', message: `cannot reach ${preflightUrl} from here (${forged.error})` };
    if (forged.status !== 401) {
        return {
            outcome: 'refused',
            message: `${preflightUrl} decided a sample run signed with another secret too (HTTP ${forged.status}): the gate verifies no signature (is WEBHOOK_SECRET set on it?), so the secret given to connect proves nothing; set WEBHOOK_SECRET on the gate to the same secret`,
        };
    }
    const lines = [
        `check: ${preflightUrl} verified the signature and decided a sample run (HTTP ${decided.status}); one signed with another secret was refused (HTTP 401)`,
    ];
    if (!opts.events)
        return { outcome: 'passed', lines };
    const eventsUrl = `${opts.base}/events`;
    const event = await signedPost(eventsUrl, { event: CHECK_EVENT, time }, opts.secret, deps);
    if ('error' in event)
        return { outcome: 'unreachable', message: `cannot reach ${eventsUrl} from here (${event.error})` };
    if (event.status !== 200)
        return { outcome: 'refused', message: refusal(eventsUrl, event, false) };
    lines.push(`check: ${eventsUrl} verified the signature of a sample event (HTTP 200)`);
    return { outcome: 'passed', lines };
}
//# sourceMappingURL=check-gate.js.map