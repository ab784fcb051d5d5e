"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.KnownRuns = exports.KNOWN_RUNS_MAX = void 0;
/** At most this many runs are mirrored (the newest): beyond, the oldest leave the mirror (not the store). */
exports.KNOWN_RUNS_MAX = 10_000;
/**
 * This replica's own list of the runs in progress it knows (docs/guard.md, "The state store away"):
 * replaced by what the store holds at every tick that reads it, added to as this replica allows
 * runs, and told of every end event this replica receives. When the store cannot be read, the
 * guard applies each policy's `onCannotJudge` to these runs. It also remembers what could not be
 * written while the store was away (runs allowed then, runs settled then) until a tick writes it.
 */
class KnownRuns {
    max;
    runs = new Map();
    /** Allowed while the store could not keep them: kept at the next tick that reaches the store. */
    unsaved = new Map();
    /** Cancelled (or found ended) while the store was away: never cancelled again here, recorded in the store later. */
    settled = new Set();
    constructor(max = exports.KNOWN_RUNS_MAX) {
        this.max = max;
    }
    /** A run this replica allowed; `expiresMs` given when the store could not keep it. */
    add(run, unsavedUntilMs) {
        this.runs.set(run.executionId, run);
        if (unsavedUntilMs !== undefined)
            this.unsaved.set(run.executionId, { run, expiresMs: unsavedUntilMs });
        this.trim();
    }
    /** What the store holds now (a tick read it): the mirror becomes that, plus what could not be kept. */
    refresh(runs) {
        this.runs.clear();
        for (const run of runs)
            if (!this.settled.has(run.executionId))
                this.runs.set(run.executionId, run);
        for (const { run } of this.unsaved.values())
            this.runs.set(run.executionId, run);
        this.trim();
    }
    /** The run ended (its end event reached this replica): it is not judged from the mirror again. */
    ended(executionId) {
        this.runs.delete(executionId);
        this.unsaved.delete(executionId);
    }
    /** Cancelled, or found ended by the cancel's answer, while the store was away. */
    settle(executionId) {
        this.ended(executionId);
        this.settled.add(executionId);
    }
    /** The mirrored runs not older than `ttlMs` at `nowMs`, oldest first. */
    inProgress(nowMs, ttlMs) {
        return [...this.runs.values()]
            .filter((r) => Date.parse(r.allowedAt) + ttlMs > nowMs)
            .sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
    }
    get size() {
        return this.runs.size;
    }
    /**
     * Writes to the store what the mirror holds for it: runs it could not keep, runs settled while it
     * was away (marked stopped for `keepMs` and forgotten, so no replica cancels them again). Throws
     * as the store does; what was written is not written again.
     */
    async writeTo(store, replica, keepMs, nowMs) {
        for (const [id, { run, expiresMs }] of this.unsaved) {
            if (expiresMs > nowMs)
                await store.keep(run, expiresMs, nowMs);
            this.unsaved.delete(id);
        }
        for (const id of this.settled) {
            await store.stopped(id, replica, keepMs);
            await store.forget(id);
            this.settled.delete(id);
        }
    }
    trim() {
        for (const id of this.runs.keys()) {
            if (this.runs.size <= this.max)
                break;
            this.runs.delete(id);
            this.unsaved.delete(id);
        }
        for (const id of this.settled) {
            if (this.settled.size <= this.max)
                break;
            this.settled.delete(id);
        }
    }
}
exports.KnownRuns = KnownRuns;
//# sourceMappingURL=known-runs.js.map