"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.replayGaps = replayGaps;
exports.nothingReplayed = nothingReplayed;
const plural = (n, one, many) => `${n} ${n === 1 ? one : many}`;
/**
 * What the replay did not check, one phrase each (empty when every record in the time range was
 * replayed): damaged files, runs that cannot be replayed, unreadable lines. A report with gaps must
 * not read as "nothing would change".
 */
function replayGaps(r) {
    const { damagedFiles, notReplayable, problems } = r.counts;
    const gaps = [];
    if (damagedFiles > 0)
        gaps.push(`${plural(damagedFiles, 'archive file', 'archive files')} damaged`);
    if (notReplayable > 0)
        gaps.push(`${plural(notReplayable, 'run', 'runs')} not replayable`);
    if (problems > 0)
        gaps.push(`${plural(problems, 'archive line', 'archive lines')} unreadable`);
    return gaps;
}
/**
 * Why no record was replayed (counts.replayed is 0): the replay checked nothing, and says what it
 * met instead, e.g. `2 archive lines unreadable: not a decision archive (is --archive the audit log?)`.
 */
function nothingReplayed(r) {
    const { records, outOfRange, notReplayable, problems, damagedFiles } = r.counts;
    const why = [];
    if (problems > 0)
        why.push(`${plural(problems, 'archive line', 'archive lines')} unreadable: ${records === 0 ? 'not a decision archive (is --archive the audit log, not DECISION_ARCHIVE?)' : 'see "Unreadable lines"'}`);
    if (damagedFiles > 0)
        why.push(`${plural(damagedFiles, 'archive file', 'archive files')} damaged`);
    if (notReplayable > 0)
        why.push(`${plural(notReplayable, 'run', 'runs')} cannot be replayed against these policies (see "Not replayable")`);
    if (outOfRange > 0)
        why.push(`${plural(outOfRange, 'archived run is', 'archived runs are')} outside --since/--until`);
    if (why.length === 0)
        why.push('the archive holds no decision');
    return `no archived decision was replayed, so nothing was checked: ${why.join('; ')}`;
}
//# sourceMappingURL=replay-gaps.js.map