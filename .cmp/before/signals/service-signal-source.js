"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.serviceSignalSource = serviceSignalSource;
const signal_gatherer_1 = require("./signal-gatherer");
const signal_fact_source_1 = require("./signal-fact-source");
const signal_metrics_1 = require("./signal-metrics");
const tick_answer_cache_1 = require("./tick-answer-cache");
const unconfigured_sources_1 = require("./unconfigured-sources");
/** A calendar's address as logged: its origin only, since secret calendar addresses carry their token in the path. */
function calendarUrlText(url) {
    const parsed = new URL(url);
    return parsed.pathname === '/' ? parsed.origin : `${parsed.origin}/…`;
}
/**
 * The live-signal fact sources of a service (docs/signals.md): its metrics in the service's
 * registry, its configured sources logged (addresses only, never credentials), and a warning when
 * the policies ask a source that is not configured (an error when the rules asking it have
 * `onUnavailable: allow`: they are switched off): at start-up (`needs`: the first policy set's)
 * and the first time a later set (a reload) asks another one. Preflights and the guard ask the same
 * sources through two caches: the guard's lives one tick, so a stop never waits for a cached answer.
 */
function serviceSignalSource(config, deps) {
    deps.logger.info('signal sources', {
        sources: config.sources.map((s) => ({
            kind: s.kind,
            name: s.name,
            url: s.calendar ? calendarUrlText(s.url) : s.url,
            auth: s.auth?.type ?? 'none',
            privateCa: s.ca !== undefined,
            ...(s.calendar ? { format: 'ical' } : {}),
        })),
        cacheTtlMs: config.cacheTtlMs,
        timeoutMs: config.timeoutMs,
    });
    const metrics = (0, signal_metrics_1.createSignalMetrics)(deps.registry, config);
    const tick = (0, tick_answer_cache_1.createTickAnswerCache)();
    const warned = new Set();
    const warnUnconfigured = (needs) => {
        for (const onUnavailable of ['deny', 'allow']) {
            const missing = (0, unconfigured_sources_1.unconfiguredSources)(needs, config, onUnavailable).filter((s) => !warned.has(`${onUnavailable} ${s}`));
            if (missing.length === 0)
                continue;
            for (const s of missing)
                warned.add(`${onUnavailable} ${s}`);
            if (onUnavailable === 'deny')
                deps.logger.warn(unconfigured_sources_1.UNCONFIGURED_SOURCES_WARNING, { sources: missing });
            else
                deps.logger.error(unconfigured_sources_1.UNCONFIGURED_FAIL_OPEN_ERROR, { sources: missing });
        }
    };
    warnUnconfigured(deps.needs ?? []);
    const warning = (inner) => ({
        ...inner,
        gather(needs, payload, now, directory, environments) {
            warnUnconfigured(needs);
            return inner.gather(needs, payload, now, directory, environments);
        },
    });
    return {
        preflight: warning((0, signal_fact_source_1.signalFactSource)((0, signal_gatherer_1.createSignalGatherer)({ config, metrics }))),
        guard: warning((0, signal_fact_source_1.signalFactSource)((0, signal_gatherer_1.createSignalGatherer)({ config, metrics, cache: tick }))),
        nextTick: () => tick.nextTick(),
        unconfigured: (needs, onUnavailable) => (0, unconfigured_sources_1.unconfiguredSources)(needs, config, onUnavailable),
    };
}
//# sourceMappingURL=service-signal-source.js.map