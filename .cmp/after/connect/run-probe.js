"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.runProbe = runProbe;
const node_crypto_1 = require("node:crypto");
const experiment_endpoints_1 = require("../platform/experiment-endpoints");
const connect_probe_1 = require("../policy/engine/connect-probe");
/** Ended runs (ExperimentExecutionAO.state): the probe stops waiting at these. */
const ENDED = new Set(['FAILED', 'ERRORED', 'CANCELED', 'COMPLETED']);
const CALL_MS = 30_000;
const defaultSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/** A wait that ends early when the probe is stopped. */
function sleepUnless(sleep, ms, signal) {
    if (!signal)
        return sleep(ms);
    if (signal.aborted)
        return Promise.resolve();
    return new Promise((resolve) => {
        const stop = () => resolve();
        signal.addEventListener('abort', stop, { once: true });
        sleep(ms).then(() => {
            signal.removeEventListener('abort', stop);
            resolve();
        }, resolve);
    });
}
function value(res, what) {
    if (res.ok)
        return res.value;
    throw new ProbeFailure(`${what}: ${res.failure.message}`);
}
/** Called once what a call created is kept (so the clean-up sees it): a stopped probe goes no further. */
function stopIfAsked(signal) {
    if (signal?.aborted)
        throw new ProbeFailure(`stopped before the run ended (${signal.reason.message})`);
}
class ProbeFailure extends Error {
}
/** What a run's end says about the gate; `ok` only when the gate's probe mark is in its reason. */
function verdict(run, nonce) {
    const reason = run.reason ?? '(no reason given)';
    if (run.reason?.includes((0, connect_probe_1.probeMark)(nonce)))
        return { ok: true, message: `the gate decided run ${run.id}: ${reason}` };
    if (run.state === 'COMPLETED') {
        return {
            ok: false,
            message: `run ${run.id} completed: no gate denied it, so the preflight webhook does not reach this gate (check its URL, scope and events, and that the gate runs this version)`,
        };
    }
    return { ok: false, message: `run ${run.id} ended ${run.state} without this gate's answer: ${reason}` };
}
/**
 * `connect --probe`: proves the wiring end to end. It creates a harmless experiment (one wait step,
 * named `preflight-gate probe <nonce>`), runs it, waits for the run to end and confirms that this
 * gate decided it (the gate denies probes by design, naming the nonce: connect-probe.ts), then
 * cancels the run if it still goes and deletes the experiment, whatever happened (also when
 * `deps.signal` stops it halfway).
 */
async function runProbe(opts, deps) {
    const now = deps.now ?? Date.now;
    const sleep = deps.sleep ?? defaultSleep;
    const nonce = deps.nonce?.() ?? (0, node_crypto_1.randomBytes)(8).toString('hex');
    const deadline = () => now() + CALL_MS;
    const design = {
        name: `${connect_probe_1.PROBE_NAME_PREFIX}${nonce}`,
        team: opts.team,
        ...(opts.environment ? { environment: opts.environment } : {}),
        externalId: `preflight-gate-probe-${nonce}`,
        tags: ['preflight-gate-probe'],
        hypothesis: 'preflight-gate connect --probe: the preflight webhook reaches the gate, which decides this run and denies it by design; it never runs.',
        lanes: [{ steps: [{ type: 'wait', ignoreFailure: false, parameters: { duration: '1s' } }] }],
    };
    let key;
    let run;
    try {
        key = value(await (0, experiment_endpoints_1.createExperiment)(deps.client, design, deadline()), 'cannot create the probe experiment (POST /api/experiments)');
        deps.write(`probe: created experiment ${key} "${design.name}" (one wait step)`);
        stopIfAsked(deps.signal);
        const id = value(await (0, experiment_endpoints_1.executeExperiment)(deps.client, key, deadline()), `cannot run ${key} (POST /api/experiments/${key}/execute)`);
        run = { id, state: 'CREATED' };
        deps.write(`probe: started run ${id}`);
        const until = now() + opts.timeoutMs;
        stopIfAsked(deps.signal);
        run = value(await (0, experiment_endpoints_1.getExecution)(deps.client, id, deadline()), `cannot read run ${id}`);
        while (!ENDED.has(String(run.state).toUpperCase())) {
            if (now() >= until)
                throw new ProbeFailure(`run ${id} did not end within ${opts.timeoutMs / 1000} s (state ${run.state ?? 'unknown'})`);
            await sleepUnless(sleep, deps.pollMs ?? 1000, deps.signal);
            stopIfAsked(deps.signal);
            run = value(await (0, experiment_endpoints_1.getExecution)(deps.client, id, deadline()), `cannot read run ${id}`);
        }
        return verdict(run, nonce);
    }
    catch (err) {
        if (err instanceof ProbeFailure)
            return { ok: false, message: err.message };
        throw err;
    }
    finally {
        await cleanUp(deps, key, run, deadline());
    }
}
async function cleanUp(deps, key, run, deadlineMs) {
    if (run && !ENDED.has(String(run.state).toUpperCase())) {
        const cancel = await (0, experiment_endpoints_1.cancelExecution)(deps.client, run.id, deadlineMs);
        deps.write(cancel.ok ? `probe: canceled run ${run.id}` : `probe: could not cancel run ${run.id}: ${cancel.failure.message}`);
    }
    if (key === undefined)
        return;
    const deleted = await (0, experiment_endpoints_1.deleteExperiment)(deps.client, key, deadlineMs);
    deps.write(deleted.ok
        ? `probe: deleted experiment ${key}`
        : `probe: could not delete experiment ${key}, delete it by hand: ${deleted.failure.message}`);
}
//# sourceMappingURL=run-probe.js.map