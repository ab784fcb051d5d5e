"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.createSignalGatherer = createSignalGatherer;
const alertmanager_client_1 = require("./alertmanager-client");
const answer_cache_1 = require("./answer-cache");
const prometheus_client_1 = require("./prometheus-client");
const json_client_1 = require("./json-client");
const calendar_client_1 = require("./calendar-client");
const signal_need_1 = require("../policy/facts/signal-need");
const signal_source_1 = require("./signal-source");
const source_kind_1 = require("../policy/signals/source-kind");
const KIND_OF = {
    alerts: 'alertmanager',
    prometheus: 'prometheus',
    json: 'json',
};
const kindOf = (need) => KIND_OF[need.kind];
/** One query to a configured source. */
function fetchFor(need, source, timeoutMs, clock) {
    switch (need.kind) {
        case 'alerts':
            return (0, alertmanager_client_1.fetchAlerts)(source, timeoutMs, clock);
        case 'prometheus':
            return (0, prometheus_client_1.fetchQuery)(source, need.query, timeoutMs, clock);
        case 'json':
            return source.calendar
                ? (0, calendar_client_1.fetchCalendar)(source, need.path, timeoutMs, clock)
                : (0, json_client_1.fetchJson)(source, need.path, timeoutMs, clock);
    }
}
/** Files an answer under its source (and query or path) in the facts. */
function record(facts, need, answer) {
    if (need.kind === 'alerts') {
        (facts.alertmanager ??= Object.create(null))[need.source] = answer;
    }
    else if (need.kind === 'prometheus') {
        const bySource = (facts.prometheus ??= Object.create(null));
        (bySource[need.source] ??= Object.create(null))[need.query] = answer;
    }
    else {
        const bySource = (facts.json ??= Object.create(null));
        (bySource[need.source] ??= Object.create(null))[need.path] = answer;
    }
}
/**
 * The step before the decision for signal rules: one query per distinct need, answers shared with
 * a query under way or kept for SIGNAL_CACHE_TTL_MS, each query within SIGNAL_TIMEOUT_MS. Never
 * rejects: a source that is not configured, or cannot answer, is an error answer the rule judges.
 */
/** Where a missing source is configured: json sources (and calendars) only in SIGNAL_SOURCES_FILE. */
const HOW_TO_CONFIGURE = {
    alertmanager: 'ALERTMANAGER_URL or SIGNAL_SOURCES_FILE',
    prometheus: 'PROMETHEUS_URL or SIGNAL_SOURCES_FILE',
    json: 'a json source in SIGNAL_SOURCES_FILE',
};
function createSignalGatherer(deps) {
    const clock = deps.clock ?? (() => new Date());
    const cache = deps.cache ?? (0, answer_cache_1.createAnswerCache)(deps.config.cacheTtlMs);
    const { timeoutMs } = deps.config;
    const ask = async (need, now) => {
        const kind = kindOf(need);
        const source = (0, signal_source_1.findSource)(deps.config, kind, need.source);
        if (!source)
            return {
                readAt: clock().toISOString(),
                error: `${(0, source_kind_1.sourceText)(kind, need.source)} is not configured (docs/signals.md: ${HOW_TO_CONFIGURE[kind]})`,
            };
        const load = async () => {
            const started = performance.now();
            const got = await fetchFor(need, source, timeoutMs, clock);
            deps.metrics?.query(kind, source.name, got.outcome, (performance.now() - started) / 1000);
            return got.answer;
        };
        const { answer, cached } = await cache.get((0, signal_need_1.needKey)(need), load);
        if (cached)
            deps.metrics?.cacheHit(kind, source.name);
        return source.calendar ? (0, calendar_client_1.calendarJsonAnswer)(answer, now) : answer;
    };
    return async (needs, now = clock()) => {
        const distinct = new Map();
        for (const need of needs)
            distinct.set((0, signal_need_1.needKey)(need), need);
        const list = [...distinct.values()];
        const answers = await Promise.all(list.map((need) => ask(need, now)));
        const facts = {};
        list.forEach((need, i) => record(facts, need, answers[i]));
        return facts;
    };
}
//# sourceMappingURL=signal-gatherer.js.map