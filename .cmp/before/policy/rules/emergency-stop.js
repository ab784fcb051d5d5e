"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.emergencyStopRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const state_fact_1 = require("./state-fact");
/**
 * `- emergencyStop: {}`: deny every run while Steadybit's emergency stop (kill switch) is engaged,
 * as last reported to POST /events. The service also applies it as a built-in policy (on by
 * default, EMERGENCY_STOP_POLICY=off turns that off); this kind lets a policy scope or warn on it.
 */
exports.emergencyStopRule = (0, rule_kind_1.defineRule)({
    key: 'emergencyStop',
    description: 'Deny every run while the Steadybit emergency stop (kill switch) is engaged (state from POST /events).',
    schema: { type: 'object', additionalProperties: false, properties: {} },
    compile() {
        return {
            needs: [{ kind: 'emergency-stop' }],
            check: (0, checked_1.findings)(({ ctx }) => {
                const stop = (0, state_fact_1.stateFact)(ctx, 'emergencyStop');
                if (!stop)
                    return [(0, state_fact_1.notLoaded)('emergency stop')];
                if (stop.unconfirmed)
                    return [{ reason: `cannot decide: ${stop.unconfirmed}`, status: 'undecidable' }];
                if (!stop.engaged)
                    return [];
                const by = stop.by ?? 'an unknown user';
                const since = stop.since ?? 'an unknown time';
                return [
                    {
                        reason: `the emergency stop is engaged (by ${by} since ${since}); no run may start until it is disengaged`,
                        value: since,
                    },
                ];
            }),
        };
    },
});
//# sourceMappingURL=emergency-stop.js.map