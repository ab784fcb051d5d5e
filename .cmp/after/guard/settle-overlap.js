"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.overlapSettler = overlapSettler;
const node_crypto_1 = require("node:crypto");
const state_fact_source_1 = require("../state/state-fact-source");
const state_store_1 = require("../state/state-store");
const guard_store_1 = require("./guard-store");
const LOCK_MS = 5_000;
const WAIT_MS = 10_000;
const RETRY_MS = 5;
const defaultSleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
/**
 * Runs of a set with `noOverlap` rules are allowed one at a time, across replicas: the first decision
 * read the runs in progress without a lock, so two overlapping preflights decided within the same
 * milliseconds could both be allowed. An allowed run is decided again under the guard store's overlap
 * lock, on the runs in progress read afresh, and kept before the lock is given back and before it is
 * answered, so the next one decided sees it (docs/policies.md, noOverlap). A denied run, or one the
 * state's fallback (STATE_UNAVAILABLE=allow) decided without the runs in progress, passes as it is.
 * A lock not had within `waitMs`, lost before the keep, or a store that cannot answer: denied (503).
 */
function overlapSettler(deps) {
    const lockMs = deps.lockMs ?? LOCK_MS;
    const waitMs = deps.waitMs ?? WAIT_MS;
    const sleep = deps.sleep ?? defaultSleep;
    const newToken = deps.newToken ?? node_crypto_1.randomUUID;
    const lock = async (token) => {
        const until = Date.now() + waitMs;
        for (let wait = RETRY_MS; !(await deps.store.lockOverlap(token, lockMs)); wait = Math.min(wait * 2, 100)) {
            if (Date.now() >= until)
                throw new state_store_1.StateUnavailableError(`other runs held the overlap check for ${waitMs / 1000} s (noOverlap decides one run at a time)`);
            await sleep(wait);
        }
    };
    return async (decided, bundle, payload, now, redecide, finish) => {
        const keys = (0, state_fact_source_1.overlapKeys)(bundle.needs);
        const id = payload.execution?.id;
        if (!decided.decision.allowed ||
            keys === undefined ||
            decided.facts.state?.inProgress === undefined ||
            id === undefined)
            return finish(decided);
        const token = newToken();
        await lock(token);
        try {
            const inProgress = await deps.inProgress.sharing(payload, keys, now.getTime());
            const facts = { ...decided.facts, state: { ...decided.facts.state, inProgress } };
            const settled = await finish({ decision: redecide(facts), facts });
            if (!settled.decision.allowed)
                return settled;
            const run = (0, guard_store_1.guardedRunOf)(id, settled.decision, payload, now);
            if (!(await deps.store.keepLocked(run, now.getTime() + deps.executionTtlMs, now.getTime(), token)))
                throw new state_store_1.StateUnavailableError(`the overlap check took longer than its lock (${lockMs / 1000} s), so another run may have been decided meanwhile`);
            return settled;
        }
        finally {
            await deps.store.unlockOverlap(token).catch(() => undefined);
        }
    };
}
//# sourceMappingURL=settle-overlap.js.map