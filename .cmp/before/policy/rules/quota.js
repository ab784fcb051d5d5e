"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.quotaRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const checked_1 = require("../core/checked");
const duration_1 = require("../../syntax/duration");
const human_duration_1 = require("../../syntax/human-duration");
const state_facts_1 = require("../facts/state-facts");
const run_scopes_1 = require("./run-scopes");
const state_fact_1 = require("./state-fact");
/**
 * `- quota: {maxRuns: 10, per: team, window: 1d}`: at most N runs started per team (or
 * environment) in any rolling window (the last 24 hours for 1d, not the calendar day: no burst
 * at midnight). The run being preflighted is not counted against itself.
 */
exports.quotaRule = (0, rule_kind_1.defineRule)({
    key: 'quota',
    description: 'At most maxRuns runs started per team (or environment) in a rolling window (state from POST /events).',
    schema: {
        type: 'object',
        additionalProperties: false,
        required: ['maxRuns', 'window'],
        properties: {
            maxRuns: { type: 'integer', minimum: 1, maximum: 100000 },
            per: { type: 'string', enum: ['team', 'environment'], default: 'team' },
            window: {
                type: 'string',
                pattern: duration_1.DURATION_WITH_UNITS_PATTERN,
                syntax: 'duration',
                description: 'rolling window, e.g. 1h, 1d, 7d (at most 31d)',
            },
        },
    },
    compile(spec) {
        const windowMs = (0, duration_1.parseDuration)(spec.window);
        if (windowMs === undefined || windowMs <= 0 || windowMs > state_facts_1.HISTORY_MS)
            throw new rule_kind_1.RuleSpecError(`window must be more than 0 and at most 31d, got "${spec.window}"`, ['window']);
        const per = spec.per ?? 'team';
        return {
            needs: [{ kind: 'started', per, windowMs }],
            check: (0, checked_1.findings)(({ ctx }) => {
                const started = (0, state_fact_1.stateFact)(ctx, 'started');
                if (!started)
                    return [(0, state_fact_1.notLoaded)('started executions')];
                const scopes = (0, run_scopes_1.runScopes)(ctx, per);
                if ((0, run_scopes_1.noScopes)(scopes))
                    return [scopes];
                const since = ctx.now.getTime() - windowMs;
                const out = [];
                for (const scope of scopes) {
                    const runs = (0, run_scopes_1.otherRuns)(started[scope.key], ctx).filter((r) => r.atMs >= since);
                    if (runs.length < spec.maxRuns)
                        continue;
                    const freesAt = runs[runs.length - spec.maxRuns].atMs + windowMs;
                    out.push({
                        reason: `${scope.label} started ${runs.length} runs in the last ${(0, human_duration_1.humanDuration)(windowMs)} (quota ${spec.maxRuns}); the next run may start after ${(0, state_fact_1.iso)(freesAt)}`,
                        value: String(runs.length),
                    });
                }
                return out;
            }),
        };
    },
});
//# sourceMappingURL=quota.js.map