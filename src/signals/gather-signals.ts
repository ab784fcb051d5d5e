import { fetchAlerts } from './alertmanager-client';
import { createAnswerCache, type AnswerCache } from './answer-cache';
import type { Fetched } from './http-get-json';
import { fetchQuery } from './prometheus-client';
import type { AlertsAnswer, QueryAnswer, SignalFacts } from './signal-facts';
import type { SignalMetrics } from './signal-metrics';
import { needKey, type ResolvedSignalNeed } from './signal-need';
import { findSource, sourceText, type SignalsConfig, type SourceKind } from './signal-source';

export interface SignalGathererDeps {
  config: SignalsConfig;
  metrics?: SignalMetrics;
  /** Wall clock: when an answer was read. */
  clock?: () => Date;
  cache?: AnswerCache;
}

/** Asks the sources for every resolved need (each distinct one once) and returns what they said. */
export type SignalGatherer = (needs: Iterable<ResolvedSignalNeed>) => Promise<SignalFacts>;

const kindOf = (need: ResolvedSignalNeed): SourceKind => (need.kind === 'alerts' ? 'alertmanager' : 'prometheus');

/**
 * The step before the decision for signal rules: one query per distinct need, answers shared with
 * a query under way or kept for SIGNAL_CACHE_TTL_MS, each query within SIGNAL_TIMEOUT_MS. Never
 * rejects: a source that is not configured, or cannot answer, is an error answer the rule judges.
 */
export function createSignalGatherer(deps: SignalGathererDeps): SignalGatherer {
  const clock = deps.clock ?? (() => new Date());
  const cache = deps.cache ?? createAnswerCache(deps.config.cacheTtlMs);
  const { timeoutMs } = deps.config;

  const ask = async (need: ResolvedSignalNeed): Promise<AlertsAnswer | QueryAnswer> => {
    const kind = kindOf(need);
    const source = findSource(deps.config, kind, need.source);
    if (!source) return { readAt: clock().toISOString(), error: `${sourceText(kind, need.source)} is not configured (docs/signals.md: ${kind.toUpperCase()}_URL or SIGNAL_SOURCES_FILE)` };
    const load = async (): Promise<AlertsAnswer | QueryAnswer> => {
      const started = performance.now();
      const got: Fetched<AlertsAnswer | QueryAnswer> = need.kind === 'alerts' ? await fetchAlerts(source, timeoutMs, clock) : await fetchQuery(source, need.query, timeoutMs, clock);
      deps.metrics?.query(kind, source.name, got.outcome, (performance.now() - started) / 1000);
      return got.answer;
    };
    const { answer, cached } = await cache.get(needKey(need), load);
    if (cached) deps.metrics?.cacheHit(kind, source.name);
    return answer;
  };

  return async (needs) => {
    const distinct = new Map<string, ResolvedSignalNeed>();
    for (const need of needs) distinct.set(needKey(need), need);
    const list = [...distinct.values()];
    const answers = await Promise.all(list.map(ask));
    const facts: SignalFacts = {};
    list.forEach((need, i) => {
      if (need.kind === 'alerts') {
        (facts.alertmanager ??= Object.create(null) as Record<string, AlertsAnswer>)[need.source] = answers[i] as AlertsAnswer;
      } else {
        const bySource = (facts.prometheus ??= Object.create(null) as Record<string, Record<string, QueryAnswer>>);
        (bySource[need.source] ??= Object.create(null) as Record<string, QueryAnswer>)[need.query] = answers[i] as QueryAnswer;
      }
    });
    return facts;
  };
}
