"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayArchive = replayArchive;
const uses_dependence_1 = require("./uses-dependence");
const archive_lines_1 = require("./archive-lines");
const read_records_1 = require("./read-records");
const replay_block_1 = require("./replay-block");
const replay_line_1 = require("./replay-line");
const replay_report_1 = require("./replay-report");
const replay_workers_1 = require("./replay-workers");
const archive_files_1 = require("../archive/archive-files");
/** Blocks in flight per writer's stream with worker threads: enough to keep every worker busy, few enough to keep memory flat. */
const IN_FLIGHT_PER_WORKER = 2;
/** The replayed lines of one writer's files, in order; files closed before `since` are not opened. */
async function* streamReplayed(stream, since, decide, inFlight) {
    const from = since && (0, archive_files_1.stampOf)(since);
    const pending = [];
    for (const file of stream.files) {
        if (from !== undefined && file.closedAt !== undefined && file.closedAt.slice(0, from.length) < from)
            continue;
        for await (const block of (0, read_records_1.readBlocks)(file.path)) {
            pending.push('bytes' in block ? decide(block) : [{ ...block, at: '' }]);
            // Read ahead while the workers decide; hand out the oldest block's lines once enough are in flight.
            if (pending.length >= inFlight)
                yield* await pending.shift();
        }
    }
    while (pending.length > 0)
        yield* await pending.shift();
}
/** One replayed line into the report, in archive order (the same order with or without worker threads). */
function take(tally, line, revision, warn) {
    const { counts } = tally.report;
    switch (line.kind) {
        case 'damaged':
            tally.damaged({ file: line.file, line: line.line, message: line.message });
            return;
        case 'problem':
            tally.problem(line.where, line.message);
            warn?.(line.where, line.message);
            return;
        case 'out-of-range':
            counts.records++;
            counts.outOfRange++;
            return;
        case 'not-replayable':
            counts.records++;
            tally.notReplayable(line.run, line.reason);
            warn?.(line.where, `run ${line.id} cannot be replayed: ${line.reason}`);
            return;
        case 'replayed': {
            counts.records++;
            tally.replayed(line.revision);
            if (line.dependsOnUses)
                tally.dependsOnUses(line.dependsOnUses);
            if (!line.changed) {
                counts.unchanged++;
                return;
            }
            const sameRevision = line.revision === revision;
            tally.changed(line.changed, sameRevision);
            if (sameRevision)
                warn?.(line.where, `run ${line.id}: the policy revision that decided it (${line.revision}) answers differently now; replay is not exact for this run (please report it)`);
        }
    }
}
/**
 * Replays an archive against a proposed policy set: every record in the time range is decided
 * again (replay-line.ts) and compared with what was answered. Streams the archive, block by block
 * of whole lines; with worker threads, blocks are decided on them while this thread reads ahead,
 * and their lines are taken in archive order. Holds one bundle per distinct set of built-ins, the
 * blocks in flight and a bounded report.
 */
async function replayArchive(opts) {
    const tally = new replay_report_1.ReplayTally({
        archive: opts.archive,
        policyDir: opts.policyDir,
        revision: opts.bundle.revision,
        since: opts.since?.toISOString(),
        until: opts.until?.toISOString(),
        listed: opts.listed,
    });
    if (opts.bundle.exceptions.some((e) => e.maxUses !== undefined))
        tally.report.dependsOnUses = { rule: uses_dependence_1.USES_DEPENDENCE_RULE, count: 0, runs: [] };
    const workers = (opts.workers ?? 0) > 0
        ? await (0, replay_workers_1.startReplayWorkers)(opts.workers, {
            policyDir: opts.policyDir,
            revision: opts.bundle.revision,
            since: opts.since?.toISOString(),
            until: opts.until?.toISOString(),
        })
        : undefined;
    try {
        const replayer = (0, replay_line_1.lineReplayer)(opts.bundle, opts.policyDir, opts.since, opts.until);
        const decide = workers
            ? workers.decide
            : (block) => (0, replay_block_1.replayBlock)(replayer, block);
        const inFlight = workers ? IN_FLIGHT_PER_WORKER * workers.size : 1;
        const lines = (0, archive_lines_1.mergeByTime)(opts.streams.map((s) => streamReplayed(s, opts.since, decide, inFlight)), (line) => line.at);
        for await (const line of lines)
            take(tally, line, opts.bundle.revision, opts.warn);
    }
    finally {
        await workers?.stop();
    }
    return tally.finish();
}
//# sourceMappingURL=replay-archive.js.map