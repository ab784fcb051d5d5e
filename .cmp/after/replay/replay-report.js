"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.ReplayTally = void 0;
exports.runRef = runRef;
const json_object_1 = require("../common/json-object");
const compare_answers_1 = require("./compare-answers");
const text = (v) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);
function runRef(record) {
    const execution = (0, json_object_1.isJsonObject)(record.payload) && (0, json_object_1.isJsonObject)(record.payload.execution) ? record.payload.execution : {};
    const ref = { decisionId: record.id, at: record.at };
    const fields = {
        executionId: text(execution.id),
        experimentKey: text(execution.experimentKey),
        teamKey: text(execution.teamKey),
        environment: text(execution.environment),
    };
    for (const [k, v] of Object.entries(fields))
        if (v !== undefined)
            ref[k] = v;
    return ref;
}
/** Caps the distinct messages too: a broken archive must not grow the report without bound. */
const MAX_MESSAGES = 100;
const OTHERS = '(other messages, not listed one by one)';
function countInto(list, message, example, listed) {
    let entry = list.find((e) => e.message === message) ??
        (list.length >= MAX_MESSAGES ? list.find((e) => e.message === OTHERS) : undefined);
    if (!entry)
        list.push((entry = { message: list.length >= MAX_MESSAGES ? OTHERS : message, count: 0, examples: [] }));
    entry.count++;
    if (entry.examples.length < listed)
        entry.examples.push(example);
}
/** Builds a ReplayReport run by run; holds counts and at most `listed` runs per list (flat memory). */
class ReplayTally {
    report;
    policies = new Map();
    constructor(head) {
        const changed = Object.fromEntries(compare_answers_1.CHANGE_KINDS.map((k) => [k, 0]));
        const changes = Object.fromEntries(compare_answers_1.CHANGE_KINDS.map((k) => [k, []]));
        this.report = {
            ...head,
            counts: {
                records: 0,
                outOfRange: 0,
                replayed: 0,
                unchanged: 0,
                changed,
                notReplayable: 0,
                problems: 0,
                irreproducible: 0,
                damagedFiles: 0,
            },
            recordedRevisions: {},
            byPolicy: [],
            changes,
            notReplayable: [],
            problems: [],
            damagedFiles: [],
            irreproducible: [],
        };
    }
    problem(where, message) {
        this.report.counts.problems++;
        countInto(this.report.problems, message, where, this.report.listed);
    }
    /** One per file (a file ends once): every one is kept. */
    damaged(file) {
        this.report.counts.damagedFiles++;
        this.report.damagedFiles.push(file);
    }
    /** A run replayed, decided by `revision` then. */
    replayed(revision) {
        this.report.counts.replayed++;
        this.report.recordedRevisions[revision] = (this.report.recordedRevisions[revision] ?? 0) + 1;
    }
    notReplayable(run, reason) {
        this.report.counts.notReplayable++;
        countInto(this.report.notReplayable, reason, run, this.report.listed);
    }
    changed(run, sameRevision) {
        this.report.counts.changed[run.kind]++;
        const list = this.report.changes[run.kind];
        if (list.length < this.report.listed)
            list.push(run);
        if (sameRevision) {
            this.report.counts.irreproducible++;
            if (this.report.irreproducible.length < this.report.listed)
                this.report.irreproducible.push(run);
        }
        for (const change of run.policies) {
            let tally = this.policies.get(change.policy);
            if (!tally)
                this.policies.set(change.policy, (tally = { policy: change.policy, newlyAllowed: 0, newlyDenied: 0, changed: 0 }));
            if (run.kind === 'newly-allowed')
                tally.newlyAllowed++;
            else if (run.kind === 'newly-denied')
                tally.newlyDenied++;
            else
                tally.changed++;
        }
    }
    /** A replayed run whose answer turned on a use count. */
    dependsOnUses(run) {
        const list = this.report.dependsOnUses;
        if (!list)
            return;
        list.count++;
        if (list.runs.length < this.report.listed)
            list.runs.push(run);
    }
    /** The finished report: policies with the most newly allowed runs first, then newly denied. */
    finish() {
        this.report.byPolicy = [...this.policies.values()].sort((a, b) => b.newlyAllowed - a.newlyAllowed ||
            b.newlyDenied - a.newlyDenied ||
            b.changed - a.changed ||
            a.policy.localeCompare(b.policy));
        return this.report;
    }
}
exports.ReplayTally = ReplayTally;
//# sourceMappingURL=replay-report.js.map