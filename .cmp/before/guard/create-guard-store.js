"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createGuardStore = createGuardStore;
const memory_guard_store_1 = require("./memory-guard-store");
const redis_guard_store_1 = require("./redis-guard-store");
/** The guard's runs next to the state: in Redis when the state is (every replica shares them), else in this process. */
function createGuardStore(state) {
    // By its kind, not instanceof: the Redis store's module (and the Redis client) is loaded only when configured.
    if (state.kind !== 'redis')
        return new memory_guard_store_1.MemoryGuardStore();
    const { redis, keys, calls } = state.share();
    return new redis_guard_store_1.RedisGuardStore(redis, keys, calls);
}
//# sourceMappingURL=create-guard-store.js.map