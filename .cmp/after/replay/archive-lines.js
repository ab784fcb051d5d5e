"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.archiveLines = archiveLines;
exports.mergeByTime = mergeByTime;
const archive_files_1 = require("../archive/archive-files");
const read_records_1 = require("./read-records");
/** A stream's lines, file after file; files closed before `since` are not opened (they hold only older decisions). */
async function* streamLines(stream, since) {
    const from = since && (0, archive_files_1.stampOf)(since);
    for (const file of stream.files) {
        if (from !== undefined && file.closedAt !== undefined && file.closedAt.slice(0, from.length) < from)
            continue;
        yield* (0, read_records_1.readRecords)(file.path);
    }
}
const timeOf = (line) => (line.kind === 'record' ? line.record.at : '');
/**
 * Every line of the archive, the streams of several writers merged in decision time order (each
 * stream is read in the order it was written; ISO times compare as text). Problems come as soon as
 * they are met. Each stream holds one file open, read ahead by at most one chunk: memory grows
 * with the number of writers, not with the archive.
 */
function archiveLines(streams, since) {
    return mergeByTime(streams.map((s) => streamLines(s, since)), timeOf);
}
/**
 * Several ordered sequences merged by `timeOf` (ISO times, '' for what comes as soon as met): each
 * time, the head with the earliest time, the first reader's on a tie. Holds one head per reader.
 */
async function* mergeByTime(readers, timeOf) {
    const heads = [];
    for (const reader of readers)
        heads.push(await head(reader));
    for (;;) {
        let pick = -1;
        for (let i = 0; i < heads.length; i++) {
            const item = heads[i];
            if (item === undefined)
                continue;
            if (pick === -1 || timeOf(item) < timeOf(heads[pick]))
                pick = i;
        }
        if (pick === -1)
            return;
        yield heads[pick];
        heads[pick] = await head(readers[pick]);
    }
}
async function head(reader) {
    const next = await reader.next();
    return next.done ? undefined : next.value;
}
//# sourceMappingURL=archive-lines.js.map