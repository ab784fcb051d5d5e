"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MemoryStateStore = exports.MEMORY_RESTART_REBUILT = exports.MEMORY_RESTART = void 0;
const killswitch_state_1 = require("./killswitch-state");
const state_store_1 = require("./state-store");
/** Runs per scope, by execution id. */
class ScopedRuns {
    byScope = new Map();
    add(scope, run) {
        const runs = this.byScope.get(scope) ?? new Map();
        runs.set(run.id, run);
        this.byScope.set(scope, runs);
    }
    remove(scope, id) {
        this.byScope.get(scope)?.delete(id);
    }
    /** Forgets the runs of a scope before `beforeMs` (bounded memory). */
    prune(scope, beforeMs) {
        const runs = this.byScope.get(scope);
        for (const [id, run] of runs ?? [])
            if (run.atMs < beforeMs)
                runs?.delete(id);
        if (runs?.size === 0)
            this.byScope.delete(scope);
    }
    /** Runs of each scope at or after `sinceMs`, oldest first. */
    since(scopes, sinceMs) {
        const out = {};
        for (const scope of scopes) {
            const runs = [...(this.byScope.get(scope)?.values() ?? [])];
            out[scope] = runs.filter((r) => r.atMs >= sinceMs).sort((a, b) => a.atMs - b.atMs);
        }
        return out;
    }
}
/** Remembers keys until a time; forgets expired ones as it goes. */
class ExpiringKeys {
    entries = new Map();
    get(key, nowMs) {
        const entry = this.entries.get(key);
        return entry && entry.expiresMs > nowMs ? entry.value : undefined;
    }
    set(key, value, expiresMs, nowMs) {
        this.entries.delete(key);
        this.entries.set(key, { value, expiresMs });
        for (const [k, e] of this.entries) {
            if (e.expiresMs > nowMs)
                break; // insertion order is close to expiry order; stop at the first live one
            this.entries.delete(k);
        }
    }
}
/** /readyz's `state.restart` for the in-memory store (docs/state.md, "Restarts"). */
exports.MEMORY_RESTART = 'a restart forgets the emergency stop, the running runs and the cool-down and quota history: the state is kept in this process only (set REDIS_URL, REDIS_SENTINELS or REDIS_CLUSTER_NODES to keep it in Redis, or STEADYBIT_URL to rebuild it from the Steadybit Platform API)';
/** The same with the Platform API configured: what a restart rebuilds, and what it cannot. */
exports.MEMORY_RESTART_REBUILT = 'a restart rebuilds the emergency stop, the running runs and the cool-down and quota history from the Steadybit Platform API at start-up (until that read succeeds, runs are denied); the state is otherwise kept in this process only';
/** The state in this process: exact for one replica, lost on restart. Atomic because JS runs one event at a time. */
class MemoryStateStore {
    timing;
    kind = 'memory';
    killswitch = killswitch_state_1.NEVER_CHANGED;
    seen = new ExpiringKeys();
    executions = new ExpiringKeys();
    running = new ScopedRuns();
    started = new ScopedRuns();
    ended = new ScopedRuns();
    /** Never dropped (ExceptionUse): a count forgotten would let a used-up exception waive again. */
    exceptionUses = new Map();
    constructor(timing) {
        this.timing = timing;
    }
    async apply(event, now) {
        const nowMs = now.getTime();
        if (this.seen.get(event.dedupeKey, nowMs))
            return 'duplicate';
        this.seen.set(event.dedupeKey, true, nowMs + 2 * this.timing.eventToleranceMs, nowMs);
        if (event.kind === 'killswitch') {
            const change = (0, killswitch_state_1.nextKillswitch)(this.killswitch, event);
            if (change.kind !== 'applied')
                return change.kind;
            this.killswitch = change.next;
            return 'applied';
        }
        return this.applyExecution(event, nowMs);
    }
    applyExecution(event, nowMs) {
        const record = this.executions.get(event.id, nowMs);
        const expiresMs = nowMs + (0, state_store_1.recordRetentionMs)(this.timing);
        if (event.phase === 'started') {
            if (record)
                return 'stale';
            this.executions.set(event.id, { status: 'running', scopes: event.scopes }, expiresMs, nowMs);
            for (const scope of event.scopes) {
                this.running.add(scope, { id: event.id, atMs: event.time.ms });
                this.running.prune(scope, nowMs - this.timing.executionTtlMs);
                this.started.add(scope, { id: event.id, atMs: event.time.ms });
                this.started.prune(scope, nowMs - state_store_1.HISTORY_MS);
            }
            return 'applied';
        }
        if (record?.status === 'ended')
            return 'stale';
        const scopes = record?.scopes ?? event.scopes;
        this.executions.set(event.id, { status: 'ended', scopes }, expiresMs, nowMs);
        for (const scope of scopes) {
            this.running.remove(scope, event.id);
            this.ended.add(scope, { id: event.id, atMs: event.time.ms, state: event.endState });
            this.ended.prune(scope, nowMs - state_store_1.HISTORY_MS);
        }
        return 'applied';
    }
    async read(query, now) {
        const nowMs = now.getTime();
        const view = {};
        if (query.emergencyStop) {
            const ks = this.killswitch;
            view.emergencyStop = ks.engaged
                ? { engaged: true, by: ks.engagedBy, since: ks.engagedAtText }
                : { engaged: false };
        }
        if (query.running)
            view.running = this.running.since(query.scopes, nowMs - this.timing.executionTtlMs);
        if (query.endedSinceMs !== undefined)
            view.ended = this.ended.since(query.scopes, query.endedSinceMs);
        if (query.startedSinceMs !== undefined)
            view.started = this.started.since(query.scopes, query.startedSinceMs);
        if (query.exceptionUses)
            view.exceptionUses = this.useCounts(query.exceptionUses);
        return view;
    }
    useCounts(names) {
        const counts = {};
        for (const name of names) {
            const count = this.exceptionUses.get(name);
            if (count !== undefined)
                counts[name] = count;
        }
        return counts;
    }
    async takeExceptionUses(uses, _now) {
        const counts = this.useCounts(uses.map((u) => u.name));
        if (uses.some((u) => (counts[u.name] ?? 0) >= u.maxUses))
            return { taken: false, counts };
        for (const u of uses)
            this.exceptionUses.set(u.name, (counts[u.name] ?? 0) + 1);
        return { taken: true };
    }
    health() {
        return { store: 'memory', available: true, restart: exports.MEMORY_RESTART };
    }
    async close() {
        // Nothing to release: the state lives and dies with the process.
    }
}
exports.MemoryStateStore = MemoryStateStore;
//# sourceMappingURL=memory-state-store.js.map