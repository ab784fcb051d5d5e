"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RunsInProgress = void 0;
const run_footprint_1 = require("../policy/engine/run-footprint");
/** Payloads read (and indexed) at a time when many runs are new to the index. */
const FETCH_CHUNK = 100;
const addTo = (index, key, id) => {
    const ids = index.get(key);
    if (ids === undefined)
        index.set(key, id);
    else if (typeof ids === 'string') {
        if (ids !== id)
            index.set(key, new Set([ids, id]));
    }
    else
        ids.add(id);
};
const removeFrom = (index, key, id) => {
    const ids = index?.get(key);
    if (ids === undefined)
        return;
    if (typeof ids === 'string') {
        if (ids === id)
            index?.delete(key);
        return;
    }
    ids.delete(id);
    if (ids.size === 1)
        index?.set(key, ids.values().next().value);
};
const sameIds = (a, b) => a.length === b.length && a.every((id, i) => id === b[i]);
/**
 * The runs in progress as the overlap rules read them (noOverlap, Facts.state.inProgress): the
 * guard's store of allowed runs (in this process, or in Redis shared by every replica), indexed by
 * target and attribute value in this process. A preflight reads only the list of ids in progress
 * (one cheap read); a run's payload is read once, when its id first shows up, and its entry leaves
 * when its id does (end event, Platform API, EXECUTION_TTL_SECONDS). So 1,000 runs of 100 targets
 * each cost a preflight one id list and a lookup per target it has, not 100,000 values.
 */
class RunsInProgress {
    store;
    entries = new Map();
    byTarget = new Map();
    byAttribute = new Map();
    /** The ids the index holds now (the last list read), in the store's order and as a set. */
    ids = [];
    live = new Set();
    /** The attribute keys the entries were read for: a key asked for the first time reads every run again. */
    keys = new Set();
    /** Index updates, one at a time (each awaits the store). */
    updating = Promise.resolve();
    constructor(store) {
        this.store = store;
    }
    /**
     * The runs in progress at `nowMs` sharing a target, or a value of one of `attributes`, with this
     * run (the run itself included when it is kept already: the rule leaves it out). Throws as the
     * store does (StateUnavailableError).
     */
    async sharing(payload, attributes, nowMs) {
        const ids = await this.store.ids(nowMs);
        const update = this.updating.then(() => this.update(ids, attributes));
        this.updating = update.catch(() => undefined);
        // The runs of this read: another preflight's read may have moved the index on meanwhile.
        const live = await update;
        const facts = { runs: {}, targets: {}, attributes: {} };
        // Most of the run's targets and values are in no run in progress: nothing is allocated for them.
        const found = (at) => {
            if (at === undefined)
                return undefined;
            let out;
            for (const id of typeof at === 'string' ? [at] : at) {
                const entry = live.has(id) ? this.entries.get(id) : undefined;
                if (entry === undefined)
                    continue;
                (out ??= []).push(id);
                facts.runs[id] = entry.run;
            }
            return out;
        };
        const footprint = (0, run_footprint_1.runFootprint)(payload.execution?.steps, attributes);
        for (const target of footprint.targets) {
            const ids = found(this.byTarget.get(target));
            if (ids)
                facts.targets[target] = ids;
        }
        for (const [key, values] of footprint.attributes) {
            const index = this.byAttribute.get(key);
            if (index === undefined)
                continue;
            for (const value of values) {
                const ids = found(index.get(value));
                if (ids)
                    (facts.attributes[key] ??= {})[value] = ids;
            }
        }
        return facts;
    }
    /** How many runs the index holds (as of the last read): a run gone from the store leaves it. */
    get size() {
        return this.entries.size;
    }
    /**
     * The index becomes the runs of `ids`: entries of ids gone leave, new ids are read from the store.
     * The same list as last time (the usual case: runs start and end far less often than preflights
     * come) changes nothing and costs one comparison. Answers the ids as a set.
     */
    async update(ids, attributes) {
        const newKey = attributes.some((key) => !this.keys.has(key));
        if (!newKey && sameIds(ids, this.ids))
            return this.live;
        if (newKey) {
            this.keys = new Set([...this.keys, ...attributes]);
            for (const id of [...this.entries.keys()])
                this.remove(id);
        }
        const live = new Set(ids);
        for (const id of [...this.entries.keys()])
            if (!live.has(id))
                this.remove(id);
        const unread = ids.filter((id) => !this.entries.has(id));
        // In chunks, yielding between them: the first read after a start (or a new key) indexes every
        // run in progress, and other requests go on meanwhile.
        for (let i = 0; i < unread.length; i += FETCH_CHUNK) {
            if (i > 0)
                await new Promise((resolve) => setImmediate(resolve));
            for (const run of await this.store.fetch(unread.slice(i, i + FETCH_CHUNK)))
                this.add(run);
        }
        // A run listed but gone by the time it was fetched is read again at the next preflight.
        const complete = ids.every((id) => this.entries.has(id));
        this.ids = complete ? ids : [];
        this.live = live;
        return live;
    }
    add(kept) {
        const id = kept.executionId;
        if (this.entries.has(id))
            return;
        const execution = kept.payload.execution;
        const footprint = (0, run_footprint_1.runFootprint)(execution?.steps, [...this.keys]);
        const entry = {
            run: {
                ...(execution?.experimentKey ? { experimentKey: execution.experimentKey } : {}),
                ...(execution?.teamKey ? { team: execution.teamKey } : {}),
                since: kept.allowedAt,
            },
            targets: [...footprint.targets],
            attributes: [...footprint.attributes].flatMap(([key, values]) => [...values].map((v) => [key, v])),
        };
        this.entries.set(id, entry);
        for (const target of entry.targets)
            addTo(this.byTarget, target, id);
        for (const [key, value] of entry.attributes) {
            let index = this.byAttribute.get(key);
            if (index === undefined)
                this.byAttribute.set(key, (index = new Map()));
            addTo(index, value, id);
        }
    }
    remove(id) {
        const entry = this.entries.get(id);
        if (entry === undefined)
            return;
        this.entries.delete(id);
        for (const target of entry.targets)
            removeFrom(this.byTarget, target, id);
        for (const [key, value] of entry.attributes) {
            const index = this.byAttribute.get(key);
            removeFrom(index, value, id);
            if (index?.size === 0)
                this.byAttribute.delete(key);
        }
    }
}
exports.RunsInProgress = RunsInProgress;
//# sourceMappingURL=runs-in-progress.js.map