"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.turnBatch = turnBatch;
/**
 * Runs synchronous jobs in batches, one batch per turn of the event loop (its check phase, through
 * `setImmediate`). The preflight handler puts its `evaluate` call here: the requests whose bodies
 * were read in one turn are evaluated back to back, and only then answered, each stage's code and
 * data still in the CPU's caches from the request before (docs/decisions/0003-turn-batching.md). A lone request
 * waits for one `setImmediate`.
 *
 * Each job settles its own promise: one that throws rejects only its own. Continuations run after
 * the whole batch (microtasks run once the `setImmediate` callback returns). At most `maxPerTurn`
 * jobs run in one turn, so a burst holds the loop for a bounded time; the rest follow in the next
 * turns, in the order they came.
 */
function turnBatch(maxPerTurn = 64) {
    if (!Number.isInteger(maxPerTurn) || maxPerTurn < 1)
        throw new RangeError(`maxPerTurn must be a positive integer, got ${maxPerTurn}`);
    let queue = [];
    const flush = () => {
        const batch = queue.length > maxPerTurn ? queue.splice(0, maxPerTurn) : queue;
        if (batch === queue)
            queue = [];
        else
            setImmediate(flush);
        for (const { job, resolve, reject } of batch) {
            try {
                resolve(job());
            }
            catch (err) {
                reject(err);
            }
        }
    };
    return (job) => new Promise((resolve, reject) => {
        if (queue.length === 0)
            setImmediate(flush);
        queue.push({ job, resolve: resolve, reject });
    });
}
//# sourceMappingURL=turn-batch.js.map