"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
const node_worker_threads_1 = require("node:worker_threads");
const load_policy_dir_1 = require("../policy/loading/load-policy-dir");
const replay_block_1 = require("./replay-block");
const replay_line_1 = require("./replay-line");
/**
 * A replay worker thread (replay-workers.ts): loads the proposed set, then replays each block it
 * is sent and answers with its lines. Refuses to start on a set whose revision is not the one the
 * replay loaded (a file changed in between): every block must be decided on the same set.
 */
function main() {
    const port = node_worker_threads_1.parentPort;
    if (!port)
        throw new Error('replay-worker runs as a worker thread');
    const settings = node_worker_threads_1.workerData;
    const send = (answer) => port.postMessage(answer);
    const loaded = (0, load_policy_dir_1.loadPolicyDir)(settings.policyDir);
    if (!loaded.ok || loaded.bundle.revision !== settings.revision) {
        send({
            ready: false,
            error: `the policy set in ${settings.policyDir} ${loaded.ok ? `is revision ${loaded.bundle.revision} now, not ${settings.revision}: it changed while the replay started` : 'no longer loads'}`,
        });
        return;
    }
    const since = settings.since === undefined ? undefined : new Date(settings.since);
    const until = settings.until === undefined ? undefined : new Date(settings.until);
    const replayer = (0, replay_line_1.lineReplayer)(loaded.bundle, settings.policyDir, since, until);
    port.on('message', (block) => {
        try {
            const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.length);
            send({ id: block.id, lines: (0, replay_block_1.replayBlock)(replayer, { ...block, bytes }) });
        }
        catch (err) {
            send({ id: block.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
        }
    });
    send({ ready: true });
}
main();
//# sourceMappingURL=replay-worker.js.map