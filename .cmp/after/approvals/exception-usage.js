"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.readDecision = readDecision;
exports.exceptionUsage = exceptionUsage;
/** Adds one decision's time to what was read. */
function readDecision(read, at) {
    read.count++;
    if (read.first === undefined || at < read.first)
        read.first = at;
    if (read.last === undefined || at > read.last)
        read.last = at;
}
/**
 * Each exception of the set with how often and when last it waived an allowed run in the sightings,
 * whether it has expired at `now`, and whether nobody used it in the last `unusedDays` days.
 * Sightings (the decisions that name an exception) may come in any order; times are ISO and
 * compare as text; `read` is every decision read.
 */
function exceptionUsage(exceptions, sightings, read, now, unusedDays) {
    const tallies = new Map();
    for (const s of sightings) {
        for (const name of new Set(s.exceptions)) {
            let t = tallies.get(name);
            if (!t)
                tallies.set(name, (t = { uses: 0, inDenied: 0 }));
            if (!s.allowed)
                t.inDenied++;
            else {
                t.uses++;
                if (t.lastUsed === undefined || s.at > t.lastUsed)
                    t.lastUsed = s.at;
            }
        }
    }
    const since = new Date(now.getTime() - unusedDays * 86_400_000).toISOString();
    const inSet = new Set(exceptions.map((e) => e.name));
    return {
        now: now.toISOString(),
        unusedDays,
        decisionsRead: read.count,
        ...(read.first ? { firstDecision: read.first, lastDecision: read.last } : {}),
        exceptions: exceptions.map((e) => {
            const t = tallies.get(e.name) ?? { uses: 0, inDenied: 0 };
            return {
                name: e.name,
                policy: e.policy,
                owner: e.owner,
                reason: e.reason,
                expires: e.expires.toISOString(),
                expired: e.expires <= now,
                ...(e.maxUses === undefined ? {} : { maxUses: e.maxUses }),
                uses: t.uses,
                inDeniedRuns: t.inDenied,
                ...(t.lastUsed ? { lastUsed: t.lastUsed } : {}),
                unused: t.lastUsed === undefined || t.lastUsed < since,
            };
        }),
        notInSet: [...tallies]
            .filter(([name]) => !inSet.has(name))
            .map(([name, t]) => ({ name, uses: t.uses, ...(t.lastUsed ? { lastUsed: t.lastUsed } : {}) }))
            .sort((a, b) => a.name.localeCompare(b.name)),
    };
}
//# sourceMappingURL=exception-usage.js.map