"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayBlock = replayBlock;
const archive_blocks_1 = require("./archive-blocks");
const read_records_1 = require("./read-records");
const replay_line_1 = require("./replay-line");
/** Every line of a block replayed, in order (blank lines are none): what a worker thread answers for a block. */
function replayBlock(replayer, block) {
    const out = [];
    const lines = (0, archive_blocks_1.blockLines)(block.bytes);
    for (let i = block.skip; i < lines.length; i++) {
        const line = (0, read_records_1.archiveLine)(block.file, block.first + i, lines[i]);
        if (line)
            out.push((0, replay_line_1.replayLine)(replayer, line));
    }
    return out;
}
//# sourceMappingURL=replay-block.js.map