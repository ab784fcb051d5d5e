"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WORKER_SCRIPT = void 0;
exports.startReplayWorkers = startReplayWorkers;
const node_path_1 = require("node:path");
const node_worker_threads_1 = require("node:worker_threads");
/** The worker's script: compiled next to this module (run from TypeScript sources, as under jest, there is none). */
exports.WORKER_SCRIPT = (0, node_path_1.join)(__dirname, 'replay-worker.js');
class ReplayWorker {
    thread;
    pending = new Map();
    failure;
    constructor(thread) {
        this.thread = thread;
        thread.on('message', (answer) => {
            if (!('id' in answer))
                return;
            const waiting = this.pending.get(answer.id);
            this.pending.delete(answer.id);
            if ('error' in answer)
                waiting?.reject(new Error(`replay worker: ${answer.error}`));
            else
                waiting?.resolve(answer.lines);
        });
        thread.on('error', (err) => this.fail(err));
        thread.on('exit', (code) => this.fail(new Error(`replay worker exited (code ${code})`)));
    }
    fail(err) {
        this.failure ??= err;
        for (const waiting of this.pending.values())
            waiting.reject(err);
        this.pending.clear();
    }
}
/** The first message of a worker: ready, or why it cannot decide (a policy set that does not load, another revision). */
function ready(thread) {
    return new Promise((resolve, reject) => {
        const onError = (err) => reject(err);
        thread.once('error', onError);
        thread.once('message', (answer) => {
            thread.off('error', onError);
            if ('ready' in answer && answer.ready)
                resolve();
            else
                reject(new Error('error' in answer ? answer.error : 'replay worker: an unexpected first message'));
        });
    });
}
/**
 * `count` worker threads, each with the proposed set loaded from `settings.policyDir` (compiled
 * sets cannot be sent between threads). Blocks go to the worker with the fewest in flight; each
 * answer is a promise, taken in archive order by the caller.
 */
async function startReplayWorkers(count, settings) {
    const threads = Array.from({ length: count }, () => new node_worker_threads_1.Worker(exports.WORKER_SCRIPT, { workerData: settings }));
    const workers = threads.map((t) => new ReplayWorker(t));
    const stop = async () => {
        await Promise.all(threads.map((t) => t.terminate()));
    };
    try {
        await Promise.all(threads.map(ready));
    }
    catch (err) {
        await stop();
        throw err;
    }
    let next = 0;
    return {
        size: count,
        decide(block) {
            const worker = workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
            if (worker.failure)
                return Promise.reject(worker.failure);
            const id = next++;
            const bytes = new Uint8Array(block.bytes);
            const message = { id, file: block.file, first: block.first, skip: block.skip, bytes };
            const answer = new Promise((resolve, reject) => worker.pending.set(id, { resolve, reject }));
            // Awaited in archive order, maybe after a later block failed: never an unhandled rejection meanwhile.
            answer.catch(() => undefined);
            worker.thread.postMessage(message, [bytes.buffer]);
            return answer;
        },
        stop,
    };
}
//# sourceMappingURL=replay-workers.js.map