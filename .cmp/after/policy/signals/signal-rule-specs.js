"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROMETHEUS_SPEC_SCHEMA = exports.ALERTS_SPEC_SCHEMA = void 0;
exports.compileAlertsSpec = compileAlertsSpec;
exports.compilePrometheusSpec = compilePrometheusSpec;
const deny_when_1 = require("./deny-when");
const matcher_1 = require("./matcher");
const placeholder_text_1 = require("./placeholder-text");
const prom_query_1 = require("./prom-query");
const signal_need_1 = require("../facts/signal-need");
const source_kind_1 = require("./source-kind");
const dead_man_1 = require("./dead-man");
const source = {
    type: 'string',
    pattern: '^[A-Za-z0-9][A-Za-z0-9_.-]*$',
    syntax: 'sourceName',
    description: `A source name of the deployment (default "${source_kind_1.DEFAULT_SOURCE}": ALERTMANAGER_URL / PROMETHEUS_URL).`,
};
const whenMissing = {
    type: 'string',
    enum: ['deny', 'allow'],
    description: 'A target of the run without an attribute a {{target.<key>}} placeholder reads, or a step not listing its targets: deny (default, cannot decide) or allow (asked about the values sent).',
};
const onUnavailable = {
    type: 'string',
    enum: ['deny', 'allow'],
    description: 'When the source cannot answer: deny (default, the run cannot be judged) or allow (said in the message).',
};
exports.ALERTS_SPEC_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['matchers'],
    properties: {
        matchers: {
            description: 'Alertmanager matchers, all must match: `severity="critical"`, `namespace="{{environment}}"`, `severity=~"critical|page"`, or several in one `{a="b", c!="d"}`.',
            oneOf: [
                { type: 'string', minLength: 1 },
                { type: 'array', minItems: 1, items: { type: 'string', minLength: 1 } },
            ],
        },
        source,
        includeSilenced: { type: 'boolean', default: false, description: 'Count silenced alerts too.' },
        includeInhibited: { type: 'boolean', default: false, description: 'Count inhibited alerts too.' },
        onUnavailable,
        whenMissing,
        deadMan: dead_man_1.DEAD_MAN_SCHEMA,
    },
};
const NO_TARGET_PLACEHOLDER = 'whenMissing is about targets: it only applies with a {{target.<attribute>}} placeholder';
function compileAlertsSpec(spec) {
    const texts = typeof spec.matchers === 'string' ? [spec.matchers] : spec.matchers;
    const matchers = [];
    for (const [i, text] of texts.entries()) {
        const parsed = (0, matcher_1.parseMatchers)(text);
        if (typeof parsed === 'string')
            return { message: parsed, path: typeof spec.matchers === 'string' ? ['matchers'] : ['matchers', String(i)] };
        matchers.push(...parsed);
    }
    const targetKeys = [...new Set(matchers.flatMap((m) => (0, placeholder_text_1.targetKeysOf)(m.value)))];
    if (spec.whenMissing !== undefined && targetKeys.length === 0)
        return { message: NO_TARGET_PLACEHOLDER, path: ['whenMissing'] };
    const deadMan = deadManOf(spec);
    if (deadMan && 'message' in deadMan)
        return deadMan;
    const name = spec.source ?? source_kind_1.DEFAULT_SOURCE;
    return {
        targetKeys,
        check: {
            source: name,
            ...(deadMan ? { deadMan } : {}),
            matchers,
            includeSilenced: spec.includeSilenced ?? false,
            includeInhibited: spec.includeInhibited ?? false,
            onUnavailable: spec.onUnavailable ?? 'deny',
        },
        needs: [{ kind: 'alerts', source: name, ...(0, signal_need_1.failsOpen)(spec.onUnavailable) }],
    };
}
exports.PROMETHEUS_SPEC_SCHEMA = {
    type: 'object',
    additionalProperties: false,
    required: ['query'],
    properties: {
        query: {
            type: 'string',
            minLength: 1,
            description: 'PromQL instant query; placeholders such as {{environment}} inside double-quoted label values.',
        },
        denyWhen: {
            type: 'string',
            description: 'Deny when a sample compares true, e.g. "> 0.02"; absent: deny when the result has any sample.',
        },
        onEmpty: {
            type: 'string',
            enum: ['allow', 'deny'],
            default: 'allow',
            description: 'An empty (or NaN-only) result: allow (default) or deny (cannot decide).',
        },
        reason: {
            type: 'string',
            minLength: 1,
            description: 'Said first when the rule denies, e.g. "the error budget burns too fast".',
        },
        source,
        onUnavailable,
        whenMissing,
        deadMan: dead_man_1.DEAD_MAN_SCHEMA,
    },
};
/** The rule's `deadMan`, compiled, if it has one (or why it cannot be). */
function deadManOf(spec) {
    return spec.deadMan === undefined ? undefined : (0, dead_man_1.compileDeadMan)(spec.deadMan, spec);
}
function compilePrometheusSpec(spec) {
    const query = (0, prom_query_1.compilePromQuery)(spec.query);
    if (typeof query === 'string')
        return { message: query, path: ['query'] };
    const denyWhen = spec.denyWhen === undefined ? undefined : (0, deny_when_1.parseDenyWhen)(spec.denyWhen);
    if (typeof denyWhen === 'string')
        return { message: denyWhen, path: ['denyWhen'] };
    const targetKeys = [...new Set((0, placeholder_text_1.targetKeysOf)(query.text))];
    if (spec.whenMissing !== undefined && targetKeys.length === 0)
        return { message: NO_TARGET_PLACEHOLDER, path: ['whenMissing'] };
    const deadMan = deadManOf(spec);
    if (deadMan && 'message' in deadMan)
        return deadMan;
    const name = spec.source ?? source_kind_1.DEFAULT_SOURCE;
    return {
        targetKeys,
        check: {
            source: name,
            ...(deadMan ? { deadMan } : {}),
            query,
            denyWhen,
            onEmpty: spec.onEmpty ?? 'allow',
            onUnavailable: spec.onUnavailable ?? 'deny',
            reason: spec.reason,
        },
        needs: [{ kind: 'prometheus', source: name, query: spec.query, ...(0, signal_need_1.failsOpen)(spec.onUnavailable) }],
    };
}
//# sourceMappingURL=signal-rule-specs.js.map