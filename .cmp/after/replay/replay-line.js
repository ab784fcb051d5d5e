"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.lineReplayer = lineReplayer;
exports.replayLine = replayLine;
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const compare_answers_1 = require("./compare-answers");
const modification_changes_1 = require("./modification-changes");
const redecide_1 = require("./redecide");
const replay_report_1 = require("./replay-report");
function lineReplayer(bundle, policyDir, since, until) {
    return {
        bundle,
        policyDir,
        since: since?.getTime() ?? -Infinity,
        until: until?.getTime() ?? Infinity,
        bundles: new Map(),
    };
}
/** The built-in policies a record names (EMERGENCY_STOP_POLICY=enforce), put in front of the proposed set as the service does. */
function withBuiltIns(bundle, names) {
    if (names.length === 0)
        return bundle;
    const unknown = names.filter((n) => n !== built_in_policies_1.EMERGENCY_STOP_POLICY);
    if (unknown.length > 0)
        return `the archive names built-in policies this version does not have: ${unknown.join(', ')}`;
    return (0, built_in_policies_1.withBuiltIns)(bundle, (0, built_in_policies_1.builtInPolicies)('enforce'));
}
function bundleFor(replayer, record) {
    const key = record.builtIns.join('\n');
    let found = replayer.bundles.get(key);
    if (found === undefined) {
        const built = withBuiltIns(replayer.bundle, record.builtIns);
        replayer.bundles.set(key, (found = typeof built === 'string' ? built : (0, redecide_1.replayBundle)(built)));
    }
    return found;
}
/**
 * One archive line replayed: a record in the time range decided again under the proposed set
 * (redecide.ts) and compared with what was answered.
 */
function replayLine(replayer, line) {
    if (line.kind === 'damaged')
        return { ...line, at: '' };
    if (line.kind === 'problem')
        return { ...line, at: '' };
    const { record, where } = line;
    const at = Date.parse(record.at);
    if (at < replayer.since || at >= replayer.until)
        return { kind: 'out-of-range', at: record.at };
    const proposed = bundleFor(replayer, record);
    const redecided = typeof proposed === 'string' ? { kind: 'not-replayable', reason: proposed } : (0, redecide_1.redecide)(proposed, record);
    if (redecided.kind === 'not-replayable')
        return {
            kind: 'not-replayable',
            at: record.at,
            where,
            id: record.id,
            run: (0, replay_report_1.runRef)(record),
            reason: redecided.reason,
        };
    const replayed = {
        kind: 'replayed',
        at: record.at,
        where,
        id: record.id,
        revision: record.revision,
    };
    if (redecided.dependsOnUses)
        replayed.dependsOnUses = { ...(0, replay_report_1.runRef)(record), ...redecided.dependsOnUses };
    const revision = replayer.bundle.revision;
    const sameRevision = record.revision === revision;
    const comparison = (0, compare_answers_1.compareAnswers)(record, redecided, {
        proposed: revision,
        recorded: record.revision,
        policyDir: replayer.policyDir,
    });
    if (comparison.same && (comparison.exact || !sameRevision))
        return replayed;
    const changed = comparison.same
        ? {
            kind: 'results',
            before: { status: record.answer.status, message: '', modifications: [] },
            after: { status: record.answer.status, message: '', modifications: [] },
            policies: [],
        }
        : comparison;
    // The policies behind changed modifications are named whatever else changed in an allowed run
    // (a reworded warning and a new value together are a 'message' change).
    if ((changed.kind === 'modifications' || changed.kind === 'message') && typeof proposed !== 'string') {
        changed.policies.push(...(0, modification_changes_1.modificationChanges)(proposed.bundle, redecided.results, (0, modification_changes_1.changedKeys)(changed.before.modifications, changed.after.modifications), changed.policies));
    }
    replayed.changed = {
        ...(0, replay_report_1.runRef)(record),
        kind: changed.kind,
        before: changed.before,
        after: changed.after,
        policies: changed.policies,
    };
    return replayed;
}
//# sourceMappingURL=replay-line.js.map