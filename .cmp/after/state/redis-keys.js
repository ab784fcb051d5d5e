"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.redisKeys = redisKeys;
/**
 * Every key is `{<prefix>}<name>`: the braces are a Redis Cluster hash tag, so all keys of one
 * prefix hash to one slot. Every script and every read then touches one slot on one node, in
 * every topology (docs/decisions/0012-redis-hash-tag.md). The prefix never holds braces (redis-config.ts).
 */
function redisKeys(prefix) {
    const tag = `{${prefix}}`;
    return {
        killswitch: `${tag}killswitch`,
        seen: (dedupeKey) => `${tag}seen:${dedupeKey}`,
        execution: (id) => `${tag}exec:${id}`,
        runs: (kind, scope) => `${tag}${kind}:${scope}`,
        guardRun: (id) => `${tag}guard:run:${id}`,
        guardRuns: `${tag}guard:runs`,
        guardLease: (id) => `${tag}guard:lease:${id}`,
        guardSilent: (id) => `${tag}guard:silent:${id}`,
        guardOverlapLock: `${tag}guard:overlap-lock`,
        exceptionUses: (name) => `${tag}exception-uses:${name}`,
    };
}
//# sourceMappingURL=redis-keys.js.map