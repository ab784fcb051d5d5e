"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseGuardConfig = parseGuardConfig;
const env_values_1 = require("../common/env-values");
function parseGuardConfig(env) {
    const interval = (0, env_values_1.envInteger)(env, 'GUARD_INTERVAL_SECONDS', 15, 1, 3600);
    const lease = (0, env_values_1.envInteger)(env, 'GUARD_LEASE_SECONDS', Math.max(30, 2 * interval), 2, 7200);
    return { intervalMs: interval * 1000, leaseMs: lease * 1000 };
}
//# sourceMappingURL=guard-config.js.map