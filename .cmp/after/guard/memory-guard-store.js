"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryGuardStore = void 0;
const silent_signals_1 = require("./silent-signals");
/** The guarded runs of one replica, in this process (lost on restart, like the rest of its state). */
class MemoryGuardStore {
    now;
    kept = new Map();
    leases = new Map();
    silent = new Map();
    overlapLock;
    constructor(now = Date.now) {
        this.now = now;
    }
    async keep(run, expiresMs, _nowMs) {
        this.kept.set(run.executionId, { run, expiresMs });
    }
    async lockOverlap(token, lockMs) {
        if (this.overlapLock && this.overlapLock.untilMs > this.now())
            return false;
        this.overlapLock = { token, untilMs: this.now() + lockMs };
        return true;
    }
    async keepLocked(run, expiresMs, nowMs, token) {
        if (this.overlapLock?.token !== token || this.overlapLock.untilMs <= this.now())
            return false;
        await this.keep(run, expiresMs, nowMs);
        return true;
    }
    async unlockOverlap(token) {
        if (this.overlapLock?.token === token)
            this.overlapLock = undefined;
    }
    async runs(nowMs) {
        const out = [];
        for (const [id, entry] of this.kept) {
            if (entry.expiresMs <= nowMs)
                this.kept.delete(id);
            else
                out.push(entry.run);
        }
        return out.sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
    }
    async ids(nowMs) {
        const out = [];
        for (const [id, entry] of this.kept)
            if (entry.expiresMs > nowMs)
                out.push(id);
        return out;
    }
    async fetch(executionIds) {
        const out = [];
        for (const id of executionIds) {
            const entry = this.kept.get(id);
            if (entry)
                out.push(entry.run);
        }
        return out;
    }
    async has(executionId, nowMs) {
        const entry = this.kept.get(executionId);
        return entry !== undefined && entry.expiresMs > nowMs;
    }
    async forget(executionId) {
        this.kept.delete(executionId);
        this.silent.delete(executionId);
    }
    async silences(executionId) {
        return [...(this.silent.get(executionId) ?? new Map())].map(([f, since]) => (0, silent_signals_1.silentSignalOf)(f, since));
    }
    async silenced(executionId, silent, _expiresMs, _nowMs) {
        const next = (0, silent_signals_1.mergeSilences)(this.silent.get(executionId) ?? new Map(), silent);
        if (next.size === 0)
            this.silent.delete(executionId);
        else
            this.silent.set(executionId, next);
        // Runs that expired without an end event take their silences with them.
        for (const id of this.silent.keys())
            if (!this.kept.has(id))
                this.silent.delete(id);
        return this.silences(executionId);
    }
    async claim(executionId, owner, leaseMs) {
        const nowMs = this.now();
        const lease = this.leases.get(executionId);
        if (lease && lease.untilMs > nowMs)
            return lease.stopped ? 'stopped' : 'held';
        this.leases.set(executionId, { owner, untilMs: nowMs + leaseMs, stopped: false });
        this.pruneLeases(nowMs);
        return 'claimed';
    }
    async release(executionId, owner) {
        if (this.leases.get(executionId)?.owner === owner)
            this.leases.delete(executionId);
    }
    async stopped(executionId, owner, keepMs) {
        this.leases.set(executionId, { owner, untilMs: this.now() + keepMs, stopped: true });
    }
    pruneLeases(nowMs) {
        for (const [id, lease] of this.leases)
            if (lease.untilMs <= nowMs)
                this.leases.delete(id);
    }
}
exports.MemoryGuardStore = MemoryGuardStore;
//# sourceMappingURL=memory-guard-store.js.map