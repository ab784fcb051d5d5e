"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.keepsExceptionUses = void 0;
exports.createStateStore = createStateStore;
const exception_use_journal_1 = require("./exception-use-journal");
const memory_state_store_1 = require("./memory-state-store");
const uncounted_exception_uses_1 = require("./uncounted-exception-uses");
/**
 * Redis when a topology is configured (several replicas), else this process's memory (one
 * replica). In memory, exception uses are counted only with EXCEPTION_USES_FILE, which a restart
 * reads again; without it they are not counted at all: a count lost on restart would let a
 * one-use exception waive again (docs/approvals.md#4-maxuses-counted-across-replicas).
 */
async function createStateStore(config, now = new Date(), logger) {
    const timing = { executionTtlMs: config.executionTtlMs, eventToleranceMs: config.eventToleranceMs };
    if (config.redis) {
        // Loaded only here: a service on one replica never loads the Redis client (docs/decisions/0030).
        const { RedisStateStore } = await Promise.resolve().then(() => __importStar(require('./redis-state-store')));
        return new RedisStateStore({ ...timing, redis: config.redis, timeoutMs: config.timeoutMs, logger });
    }
    const memory = new memory_state_store_1.MemoryStateStore(timing);
    if (config.exceptionUsesFile)
        return (0, exception_use_journal_1.journaledExceptionUses)(memory, config.exceptionUsesFile, now, (message, fields) => logger?.warn(message, fields));
    return (0, uncounted_exception_uses_1.withoutExceptionUseCounts)(memory);
}
/** Whether the configured store counts exception uses so that a restart keeps them. */
const keepsExceptionUses = (config) => config.redis !== undefined || config.exceptionUsesFile !== undefined;
exports.keepsExceptionUses = keepsExceptionUses;
//# sourceMappingURL=create-state-store.js.map