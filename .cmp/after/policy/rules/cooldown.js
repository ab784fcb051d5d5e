"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.cooldownRule = void 0;
const rule_kind_1 = require("../core/rule-kind");
const duration_1 = require("../../syntax/duration");
const human_duration_1 = require("../../syntax/human-duration");
const state_facts_1 = require("../facts/state-facts");
const environment_facts_1 = require("../facts/environment-facts");
const placeholder_text_1 = require("../signals/placeholder-text");
const run_scopes_1 = require("./run-scopes");
const state_fact_1 = require("./state-fact");
const cooldown_until_1 = require("./cooldown-until");
const service_scopes_1 = require("./service-scopes");
const signal_run_values_1 = require("./signal-run-values");
const duration = (description) => ({
    type: 'string',
    pattern: duration_1.DURATION_WITH_UNITS_PATTERN,
    syntax: 'duration',
    description,
});
/** How long a cool-down with `until` lasts at most, unless `atMost` says. */
const DEFAULT_AT_MOST_MS = 86_400_000;
/**
 * `- cooldown: {after: [FAILED, ERRORED], duration: 30m, per: environment}`: no run in an
 * environment (or team, or on an attacked service) until `duration` has passed since its last run
 * that ended in one of the `after` states, and, with `until`, until the signals show that run's
 * targets recovered (at most `atMost`). The run being preflighted never counts against itself (an
 * end already recorded under its own execution id is a replay or a clock skew, not an earlier run).
 */
exports.cooldownRule = (0, rule_kind_1.defineRule)({
    key: 'cooldown',
    description: 'Pause runs in an environment, team or on an attacked service after a run there ended FAILED or ERRORED: for a while, and/or until signals show its targets recovered (state from POST /events).',
    schema: {
        type: 'object',
        additionalProperties: false,
        properties: {
            after: {
                type: 'array',
                minItems: 1,
                uniqueItems: true,
                items: { type: 'string', enum: [...state_facts_1.END_STATES] },
                default: ['FAILED', 'ERRORED'],
            },
            duration: duration('e.g. 30m, 2h, 1d (at most 31d): at least this long after the run ended'),
            per: { type: 'string', enum: ['environment', 'team', 'service'], default: 'environment' },
            by: {
                type: 'string',
                enum: [...state_facts_1.SERVICE_KEYS],
                description: 'With per: service, the target attribute that names the attacked service (default k8s.deployment).',
            },
            until: cooldown_until_1.UNTIL_SCHEMA,
            atMost: duration('With until: the longest the cool-down lasts, recovered or not (default 1d, at most 31d).'),
            whenMissing: {
                type: 'string',
                enum: ['deny', 'allow'],
                description: 'With per: service, a target without the `by` attribute (or a step not listing its targets): deny (default, cannot decide) or allow.',
            },
        },
    },
    compile(spec) {
        if (spec.duration === undefined && spec.until === undefined)
            throw new rule_kind_1.RuleSpecError('a cool-down needs duration, until, or both: how long, or until what recovers', []);
        const durationMs = spec.duration === undefined ? 0 : windowOf(spec.duration, 'duration');
        const atMostMs = spec.until && spec.atMost !== undefined ? windowOf(spec.atMost, 'atMost') : DEFAULT_AT_MOST_MS;
        if (!spec.until && spec.atMost !== undefined)
            throw new rule_kind_1.RuleSpecError('atMost bounds a cool-down until recovered: it only applies with until', ['atMost']);
        const per = spec.per ?? 'environment';
        if (per !== 'service' && spec.by !== undefined)
            throw new rule_kind_1.RuleSpecError('by names the attacked service: it only applies with per: service', ['by']);
        if (per !== 'service' && spec.whenMissing !== undefined)
            throw new rule_kind_1.RuleSpecError('whenMissing is about targets: it only applies with per: service', ['whenMissing']);
        const by = spec.by ?? state_facts_1.SERVICE_KEYS[0];
        const until = spec.until ? untilOf(spec.until, per, by) : undefined;
        if (until && atMostMs < durationMs)
            throw new rule_kind_1.RuleSpecError(`atMost (${spec.atMost}) is shorter than duration (${spec.duration})`, ['atMost']);
        const after = new Set(spec.after ?? ['FAILED', 'ERRORED']);
        const windowMs = until ? Math.max(durationMs, atMostMs) : durationMs;
        const ended = per === 'service' ? { kind: 'ended', per, attribute: by, windowMs } : { kind: 'ended', per, windowMs };
        const environments = until?.texts.some(placeholder_text_1.fillsEnvironment) ? [environment_facts_1.ENVIRONMENT_NAMES] : [];
        return {
            needs: [ended, ...(until?.needs ?? []), ...environments],
            check: ({ ctx }) => {
                const endedRuns = (0, state_fact_1.stateFact)(ctx, 'ended');
                if (!endedRuns)
                    return { found: [(0, state_fact_1.notLoaded)('ended executions')] };
                const scopes = scopesOf(ctx, per, by, spec.whenMissing);
                if (!('list' in scopes))
                    return { found: scopes.blind };
                const since = ctx.now.getTime() - windowMs;
                const found = [];
                const read = [];
                for (const scope of scopes.list) {
                    const last = (0, run_scopes_1.otherRuns)(endedRuns[scope.key], ctx)
                        .filter((r) => r.state !== undefined && after.has(r.state) && r.atMs >= since)
                        .at(-1);
                    if (!last)
                        continue;
                    const left = last.atMs + durationMs - ctx.now.getTime();
                    if (left > 0) {
                        found.push({ reason: coolingText(scope, last, durationMs, until !== undefined), value: last.id });
                        continue;
                    }
                    if (!until)
                        continue;
                    const runs = scope.service ? scope.service.runs : (0, signal_run_values_1.runValuesOf)(ctx);
                    const checked = until.check(ctx.facts.signals, runs, last.atMs, ctx.now);
                    read.push(...(checked.read ?? []));
                    found.push(...checked.found.map((v) => notRecovered(scope, last, v, atMostMs)));
                }
                const all = [...scopes.blind, ...found];
                // Only a cool-down that asked its signals lists what it read (explanations).
                return read.length === 0 ? { found: all } : { found: all, read };
            },
        };
    },
});
function windowOf(text, field) {
    const ms = (0, duration_1.parseDuration)(text);
    if (ms === undefined || ms <= 0 || ms > state_facts_1.HISTORY_MS)
        throw new rule_kind_1.RuleSpecError(`${field} must be more than 0 and at most 31d, got "${text}"`, [field]);
    return ms;
}
/**
 * The signals of `until`, compiled. A `{{target.<key>}}` placeholder is filled with the attacked
 * service the scope shares with the last run, so only `per: service` with the same key can judge
 * the last run's targets; elsewhere it would judge this run's targets, which is refused.
 */
function untilOf(specs, per, by) {
    const compiled = (0, cooldown_until_1.compileUntil)(specs);
    if ('message' in compiled)
        throw new rule_kind_1.RuleSpecError(compiled.message, compiled.path);
    const other = compiled.targetKeys.find((k) => per !== 'service' || k !== by);
    if (other !== undefined)
        throw new rule_kind_1.RuleSpecError(state_facts_1.SERVICE_KEYS.includes(other)
            ? `{{target.${other}}} in until would judge this run's targets, not the last run's: recovery is judged per attacked service, with per: service and by: ${other}`
            : `{{target.${other}}} in until would judge this run's targets, not the last run's: only the service a cool-down is kept per (per: service, by: one of ${state_facts_1.SERVICE_KEYS.join(', ')}) can be a placeholder of until`, ['until']);
    return compiled;
}
/** The run's scopes of the kind, or what keeps them from being known (`blind`: cannot decide). */
function scopesOf(ctx, per, by, whenMissing) {
    if (per === 'service') {
        const { services, blind } = (0, service_scopes_1.serviceScopesOf)(ctx, by, whenMissing !== 'allow');
        return { list: services.map((s) => ({ key: s.key, label: s.label, service: s })), blind };
    }
    const scopes = (0, run_scopes_1.runScopes)(ctx, per);
    if ((0, run_scopes_1.noScopes)(scopes))
        return { blind: [scopes] };
    return { list: [...scopes], blind: [] };
}
function coolingText(scope, last, durationMs, until) {
    const then = until ? ' and its targets have recovered' : '';
    return `${scope.label} is cooling down: execution ${last.id} ended ${last.state} at ${(0, state_fact_1.iso)(last.atMs)}; runs may start again after ${(0, state_fact_1.iso)(last.atMs + durationMs)}${then} (cool-down ${(0, human_duration_1.humanDuration)(durationMs)})`;
}
/** A signal that does not show the last run's targets recovered, as the cool-down says it. */
function notRecovered(scope, last, v, atMostMs) {
    const runText = `execution ${last.id} (ended ${last.state} at ${(0, state_fact_1.iso)(last.atMs)})`;
    const latest = `; the cool-down ends at the latest at ${(0, state_fact_1.iso)(last.atMs + atMostMs)}`;
    if (v.status === 'undecidable')
        return {
            ...v,
            reason: `cannot decide whether ${scope.label} has recovered from ${runText}: ${v.reason.replace(/^cannot decide: /, '')}${latest}`,
        };
    return {
        ...v,
        reason: `${scope.label} is cooling down until it has recovered from ${runText}: ${v.reason}${latest}`,
    };
}
//# sourceMappingURL=cooldown.js.map