"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.AUTO_WORKERS_FROM_BYTES = void 0;
exports.replayWorkers = replayWorkers;
const node_fs_1 = require("node:fs");
const node_os_1 = require("node:os");
const bad_input_error_1 = require("../common/bad-input-error");
const replay_workers_1 = require("./replay-workers");
/**
 * Below this many archive bytes (as stored: gzipped files count compressed), `--workers auto`
 * decides in the replay's own thread: starting a worker loads the proposed set again, which costs
 * more than it saves on a few thousand decisions. 4 MB gzipped is about 8,000 decisions at 1,000
 * policies.
 */
exports.AUTO_WORKERS_FROM_BYTES = 4 * 2 ** 20;
/** At most this many workers with `auto`: each holds a compiled set of its own. */
const AUTO_MAX_WORKERS = 4;
function archiveBytes(streams) {
    let total = 0;
    for (const stream of streams)
        for (const file of stream.files) {
            try {
                total += (0, node_fs_1.statSync)(file.path).size;
            }
            catch {
                // A file that cannot be read is reported as damaged when replay reaches it.
            }
        }
    return total;
}
/**
 * `--workers`: a whole number of worker threads (0: decide in this thread), or `auto`: one per
 * core (at most 4) for an archive of at least AUTO_WORKERS_FROM_BYTES, none for a smaller one or
 * where no compiled worker script is (replay run from its TypeScript sources, as under jest).
 */
function replayWorkers(value, streams, cores = (0, node_os_1.availableParallelism)()) {
    if (value === 'auto')
        return archiveBytes(streams) < exports.AUTO_WORKERS_FROM_BYTES || !(0, node_fs_1.existsSync)(replay_workers_1.WORKER_SCRIPT)
            ? 0
            : Math.min(AUTO_MAX_WORKERS, Math.max(1, cores));
    if (!/^\d+$/.test(value) || Number(value) > 64)
        throw new bad_input_error_1.BadInputError(`--workers must be auto or a whole number from 0 to 64, got "${value}"`);
    return Number(value);
}
//# sourceMappingURL=replay-workers-option.js.map