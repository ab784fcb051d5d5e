"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.concurrencyRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const run_scopes_1 = require("./run-scopes");
const state_fact_1 = require("./state-fact");
/**
 * `- concurrency: {maxRunning: 1, per: environment}`: at most N runs at once per environment
 * (every environment the run touches) or per team. Running = created and not yet completed,
 * failed, errored or canceled (nor expired after EXECUTION_TTL_SECONDS). The run being
 * preflighted never counts against itself.
 */
exports.concurrencyRule = (0, rule_kind_1.defineRule)({
    key: 'concurrency',
    description: 'Cap the runs in progress per environment or per team (state from POST /events).',
    schema: {
        type: 'object',
        additionalProperties: false,
        required: ['maxRunning'],
        properties: {
            maxRunning: { type: 'integer', minimum: 1, maximum: 10000 },
            per: { type: 'string', enum: ['environment', 'team'], default: 'environment' },
        },
    },
    compile(spec) {
        const per = spec.per ?? 'environment';
        return {
            needs: [{ kind: 'running', per }],
            check: (0, checked_1.findings)(({ ctx }) => {
                const running = (0, state_fact_1.stateFact)(ctx, 'running');
                if (!running)
                    return [(0, state_fact_1.notLoaded)('running executions')];
                const scopes = (0, run_scopes_1.runScopes)(ctx, per);
                if ((0, run_scopes_1.noScopes)(scopes))
                    return [scopes];
                const out = [];
                for (const scope of scopes) {
                    const others = (0, run_scopes_1.otherRuns)(running[scope.key], ctx);
                    if (others.length < spec.maxRunning)
                        continue;
                    const listed = others
                        .slice(0, 3)
                        .map((r) => `${r.id} (since ${(0, state_fact_1.iso)(r.atMs)})`)
                        .join(', ');
                    out.push({
                        reason: `${scope.label} already has ${others.length} running execution${others.length === 1 ? '' : 's'} (at most ${spec.maxRunning}): ${listed}${others.length > 3 ? ', ...' : ''}`,
                        value: String(others.length),
                    });
                }
                return out;
            }),
        };
    },
});
//# sourceMappingURL=concurrency.js.map