"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.guardrailState = guardrailState;
const create_state_store_1 = require("./create-state-store");
function guardrailState(config, store) {
    return {
        store,
        onUnavailable: config.onUnavailable,
        emergencyStop: config.emergencyStop,
        eventToleranceMs: config.eventToleranceMs,
        keepsExceptionUses: (0, create_state_store_1.keepsExceptionUses)(config),
    };
}
//# sourceMappingURL=guardrail-state.js.map