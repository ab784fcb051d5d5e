import { fetchAlerts } from './alertmanager-client';
import { createAnswerCache, type AnswerCache } from './answer-cache';
import type { Fetched } from './http-get-json';
import { fetchQuery } from './prometheus-client';
import { fetchJson } from './json-client';
import { calendarJsonAnswer, fetchCalendar, type CalendarRead } from './calendar-client';
import type { AlertsAnswer, JsonAnswer, QueryAnswer, SignalFacts } from '../policy/facts/signal-facts';
import type { SignalMetrics } from './signal-metrics';
import { needKey, type ResolvedSignalNeed } from '../policy/facts/signal-need';
import { findSource, type SignalSource, type SignalsConfig } from './signal-source';
import { sourceText, type SourceKind } from '../policy/signals/source-kind';

export interface SignalGathererDeps {
  config: SignalsConfig;
  metrics?: SignalMetrics;
  /** Wall clock: when an answer was read. */
  clock?: () => Date;
  cache?: AnswerCache;
}

/**
 * Asks the sources for every resolved need (each distinct one once) and returns what they said;
 * `now` is the decision's (a calendar answers with the events going on then), else the clock's.
 */
export type SignalGatherer = (needs: Iterable<ResolvedSignalNeed>, now?: Date) => Promise<SignalFacts>;

const KIND_OF: Record<ResolvedSignalNeed['kind'], SourceKind> = {
  alerts: 'alertmanager',
  prometheus: 'prometheus',
  json: 'json',
};
const kindOf = (need: ResolvedSignalNeed): SourceKind => KIND_OF[need.kind];

type Answer = AlertsAnswer | QueryAnswer | JsonAnswer;
/** What the cache keeps: an answer, or a calendar read once and judged at each decision's `now`. */
type Kept = Answer | CalendarRead;

/** One query to a configured source. */
function fetchFor(
  need: ResolvedSignalNeed,
  source: SignalSource,
  timeoutMs: number,
  clock: () => Date,
): Promise<Fetched<Kept>> {
  switch (need.kind) {
    case 'alerts':
      return fetchAlerts(source, timeoutMs, clock);
    case 'prometheus':
      return fetchQuery(source, need.query, timeoutMs, clock);
    case 'json':
      return source.calendar
        ? fetchCalendar(source, need.path, timeoutMs, clock)
        : fetchJson(source, need.path, timeoutMs, clock);
  }
}

/** Files an answer under its source (and query or path) in the facts. */
function record(facts: SignalFacts, need: ResolvedSignalNeed, answer: Answer): void {
  if (need.kind === 'alerts') {
    (facts.alertmanager ??= Object.create(null) as Record<string, AlertsAnswer>)[need.source] = answer as AlertsAnswer;
  } else if (need.kind === 'prometheus') {
    const bySource = (facts.prometheus ??= Object.create(null) as Record<string, Record<string, QueryAnswer>>);
    (bySource[need.source] ??= Object.create(null) as Record<string, QueryAnswer>)[need.query] = answer as QueryAnswer;
  } else {
    const bySource = (facts.json ??= Object.create(null) as Record<string, Record<string, JsonAnswer>>);
    (bySource[need.source] ??= Object.create(null) as Record<string, JsonAnswer>)[need.path] = answer as JsonAnswer;
  }
}

/**
 * The step before the decision for signal rules: one query per distinct need, answers shared with
 * a query under way or kept for SIGNAL_CACHE_TTL_MS, each query within SIGNAL_TIMEOUT_MS. Never
 * rejects: a source that is not configured, or cannot answer, is an error answer the rule judges.
 */
/** Where a missing source is configured: json sources (and calendars) only in SIGNAL_SOURCES_FILE. */
const HOW_TO_CONFIGURE: Readonly<Record<ReturnType<typeof kindOf>, string>> = {
  alertmanager: 'ALERTMANAGER_URL or SIGNAL_SOURCES_FILE',
  prometheus: 'PROMETHEUS_URL or SIGNAL_SOURCES_FILE',
  json: 'a json source in SIGNAL_SOURCES_FILE',
};

export function createSignalGatherer(deps: SignalGathererDeps): SignalGatherer {
  const clock = deps.clock ?? (() => new Date());
  const cache = deps.cache ?? createAnswerCache(deps.config.cacheTtlMs);
  const { timeoutMs } = deps.config;

  const ask = async (need: ResolvedSignalNeed, now: Date): Promise<Answer> => {
    const kind = kindOf(need);
    const source = findSource(deps.config, kind, need.source);
    if (!source)
      return {
        readAt: clock().toISOString(),
        error: `${sourceText(kind, need.source)} is not configured (docs/signals.md: ${HOW_TO_CONFIGURE[kind]})`,
      };
    const load = async (): Promise<Kept> => {
      const started = performance.now();
      const got = await fetchFor(need, source, timeoutMs, clock);
      deps.metrics?.query(kind, source.name, got.outcome, (performance.now() - started) / 1000);
      return got.answer;
    };
    const { answer, cached } = await cache.get(needKey(need), load);
    if (cached) deps.metrics?.cacheHit(kind, source.name);
    return source.calendar ? calendarJsonAnswer(answer as CalendarRead, now) : (answer as Answer);
  };

  return async (needs, now = clock()) => {
    const distinct = new Map<string, ResolvedSignalNeed>();
    for (const need of needs) distinct.set(needKey(need), need);
    const list = [...distinct.values()];
    const answers = await Promise.all(list.map((need) => ask(need, now)));
    const facts: SignalFacts = {};
    list.forEach((need, i) => record(facts, need, answers[i]));
    return facts;
  };
}
