import type { AlertFact, AlertsAnswer, QueryAnswer, SignalFacts } from '../policy/facts/signal-facts';
import { checkAlerts } from '../policy/signals/alerts-check';
import { parseDenyWhen } from '../policy/signals/deny-when';
import { parseMatchers, type Matcher } from '../policy/signals/matcher';
import { fillText, parsePlaceholderText, type RunValues } from '../policy/signals/placeholder-text';
import { compilePromQuery } from '../policy/signals/prom-query';
import { compileAlertsSpec, type AlertsSpec } from '../policy/signals/signal-rule-specs';
import { DEFAULT_SOURCE } from '../policy/signals/source-kind';
import type { Doc } from './policy-set';
import type { DimName, Reading } from './term-types';
import { numberClasses, OTHER } from './value-classes';
import { canCoincide, PLACEHOLDER_DIMS, placeholdersOf, sameEnvironmentNames } from './filled-queries';
import type { PolicyBundle } from '../policy/core/compiled';

/*
 * The signals the analysed `prometheus` and `alerts` rules read (docs/decisions/0034-signals-as-fact-classes.md):
 * one dimension per Prometheus query (its source and text), one per Alertmanager source. A rule
 * denies on a vector of samples exactly when it denies on one of them alone (or on none, when all
 * are NaN), and on a list of alerts exactly when it denies on one of them alone, so one sample (or
 * none) and one alert (or none) stand for every answer.
 */

export const PROM = 'prom:';
export const ALERTS = 'alerts:';
export const promDim = (source: string, query: string): DimName => `${PROM}${JSON.stringify([source, query])}`;
export const alertsDim = (source: string): DimName => `${ALERTS}${source}`;

/** A class of a query's answer: one sample of this value, no samples, the source not answering, the query refused. */
export type PromClass = number | 'no samples' | 'unavailable' | 'refused';
/** A class of a source's alerts: none, the source not answering, or one alert (inhibited, silenced before the run started). */
export type AlertClass =
  | 'none'
  | 'unavailable'
  | {
      labels: Record<string, string>;
      /** Labels whose value is a matcher's placeholder text, filled from the run (`team: "{{team}}"`). */
      filled?: string[];
      inhibited?: true;
      silencedBeforeTheRun?: true;
    };

const asObject = (v: unknown): Doc => (v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Doc) : {});
const sourceOf = (spec: Doc) => (typeof spec.source === 'string' ? spec.source : DEFAULT_SOURCE);
/** A regex matcher the analysis splits: alternatives of plain text (`critical|page`), compared whole. */
const PLAIN_ALTERNATIVES = /^[\w\-:/@ ]*(\|[\w\-:/@ ]*)*$/;

function matchersOf(spec: Doc): Matcher[] | undefined {
  const texts = typeof spec.matchers === 'string' ? [spec.matchers] : Array.isArray(spec.matchers) ? spec.matchers : [];
  const out: Matcher[] = [];
  for (const t of texts) {
    const parsed = typeof t === 'string' ? parseMatchers(t) : 'not a string';
    if (typeof parsed === 'string') return undefined;
    out.push(...parsed);
  }
  return out;
}

/** Why a placeholder of a query or matcher is beyond the analysis: one filled from the run's targets. */
function placeholderOutside(names: readonly string[], where: string): string | undefined {
  const target = names.find((n) => PLACEHOLDER_DIMS[n] === undefined);
  return target === undefined
    ? undefined
    : `${where} fills {{${target}}} from the run's targets (placeholders of target attributes are not analysed)`;
}

/** Why a signal rule is beyond the analysis: a placeholder filled from the targets, a regex matcher it cannot split. */
function signalOutside(kind: string, spec: Doc): string | undefined {
  if (kind === 'prometheus') {
    const query = compilePromQuery(String(spec.query));
    if (typeof query === 'string') return `its query does not compile (${query})`;
    return placeholderOutside(query.text.names, 'its query');
  }
  const matchers = matchersOf(spec);
  if (matchers === undefined) return 'its matchers do not parse';
  for (const m of matchers) {
    const outside = placeholderOutside(m.value.names, `its matcher ${m.name}`);
    if (outside !== undefined) return outside;
    // One name per environment of the run (environment, override, aliases): which one an alert carries is not split.
    if (m.value.names.includes('environment'))
      return `its matcher ${m.name} fills {{environment}}, one name per environment of the run: which of them an alert carries is not analysed`;
    if (m.value.names.length > 0 && (m.op === '=~' || m.op === '!~'))
      return `its matcher ${m.name}${m.op}"${m.value.source}" fills a placeholder into a regular expression (not analysed)`;
    if ((m.op === '=~' || m.op === '!~') && !PLAIN_ALTERNATIVES.test(m.value.source))
      return `its matcher ${m.name}${m.op}"${m.value.source}" is a regular expression the analysis does not split (only alternatives of plain text, a|b)`;
  }
  return undefined;
}

/** What a `prometheus` or `alerts` rule reads (its query's or its source's dimension), or why it is beyond the analysis. */
export function signalReads(kind: string, spec: unknown, reads: Map<DimName, Reading>): string | undefined {
  if (kind !== 'prometheus' && kind !== 'alerts') return undefined;
  const s = asObject(spec);
  const outside = signalOutside(kind, s);
  if (outside !== undefined) return outside;
  reads.set(kind === 'prometheus' ? promDim(sourceOf(s), String(s.query)) : alertsDim(sourceOf(s)), 'full');
  // A query that fills placeholders reads the fields it fills them from (filled-queries.ts).
  const texts = kind === 'prometheus' ? [String(s.query)] : (matchersOf(s) ?? []).map((m) => m.value.source);
  for (const name of texts.flatMap((t) => placeholdersOf(t) ?? [])) reads.set(PLACEHOLDER_DIMS[name], 'full');
  return undefined;
}

function signalRules(docs: readonly Doc[], kind: string): Doc[] {
  return docs
    .flatMap((d) => (Array.isArray(d.rules) ? d.rules : []).map((r) => asObject(asObject(r)[kind])))
    .filter((s) => Object.keys(s).length > 0 && signalOutside(kind, s) === undefined);
}

/** Each query's classes: no samples first (what a rule that reads it lets through most), each side of every denyWhen written. */
function promClasses(specs: readonly Doc[]): Map<DimName, PromClass[]> {
  const thresholds = new Map<DimName, number[]>();
  for (const s of specs) {
    const dim = promDim(sourceOf(s), String(s.query));
    const list = thresholds.get(dim) ?? [];
    const when = typeof s.denyWhen === 'string' ? parseDenyWhen(s.denyWhen) : undefined;
    if (when !== undefined && typeof when !== 'string') list.push(when.threshold);
    thresholds.set(dim, list);
  }
  const out = new Map<DimName, PromClass[]>();
  for (const [dim, ts] of thresholds) {
    const finite = ts.filter(Number.isFinite);
    const infinite = ts.length > finite.length ? [Number.NEGATIVE_INFINITY, Number.POSITIVE_INFINITY] : [];
    out.set(dim, ['no samples', ...numberClasses(finite, { integer: false }), ...infinite, 'unavailable', 'refused']);
  }
  return out;
}

/** Label values a matcher tells apart: each it writes (an alternative of a|b each), none (`""`) and one no matcher writes. */
function labelCandidates(matchers: readonly Matcher[]): Map<string, string[]> {
  const out = new Map<string, Set<string>>();
  for (const m of matchers) {
    const set = out.get(m.name) ?? new Set(['', `${OTHER}-label-value`]);
    for (const v of m.op === '=~' || m.op === '!~' ? m.value.source.split('|') : [m.value.source]) set.add(v);
    out.set(m.name, set);
  }
  return new Map([...out].map(([k, v]) => [k, [...v]]));
}

/**
 * The labels whose matchers fill placeholders: each such label's matchers, on every rule reading the
 * source, are one text and `=` or `!=`, so an alert's value there is the run's filled text or not
 * (the value class the text stands for); else why not.
 */
function filledLabels(matchers: readonly Matcher[]): string[] | string {
  const out: string[] = [];
  for (const m of matchers) {
    if (m.value.names.length === 0 || out.includes(m.name)) continue;
    const other = matchers.find((x) => x.name === m.name && x.value.source !== m.value.source);
    if (other !== undefined)
      return `the matchers on label ${m.name} fill ${m.value.source} and also write ${other.value.source} (not analysed)`;
    out.push(m.name);
  }
  return out;
}

/** Placeholder values for deciding which alerts the rules tell apart: any run that fills every placeholder. */
const SOME_RUN: RunValues = { team: 'prove-team', experimentKey: 'prove-key', executionId: '1' };

/** Past this many label combinations of one source the classes are not all made: that dimension is not complete. */
const MAX_ALERT_COMBINATIONS = 20_000;
const SINCE = '2026-01-01T00:00:00.000Z';

/**
 * Each source's classes: no alert, one alert per combination of the labels its rules' matchers tell
 * apart and of inhibited or silenced since before the run (two alerts are one class when every
 * rule reading the source counts both or neither, as the engine's check says), the source not answering.
 */
function alertClasses(specs: readonly Doc[]): Map<DimName, { values: AlertClass[]; why?: string }> {
  const bySource = new Map<string, Doc[]>();
  for (const s of specs) bySource.set(sourceOf(s), [...(bySource.get(sourceOf(s)) ?? []), s]);
  const out = new Map<DimName, { values: AlertClass[]; why?: string }>();
  for (const [source, rules] of bySource) {
    const checks = rules.flatMap((r) => {
      const c = compileAlertsSpec(r as unknown as AlertsSpec);
      return 'message' in c ? [] : [c.check];
    });
    const labels = [...labelCandidates(checks.flatMap((c) => c.matchers))];
    const filled = filledLabels(checks.flatMap((c) => c.matchers));
    if (typeof filled === 'string') {
      out.set(alertsDim(source), { values: ['none', 'unavailable'], why: `the alerts of source ${source}: ${filled}` });
      continue;
    }
    const size = labels.reduce((n, [, vs]) => n * vs.length, 1);
    if (size > MAX_ALERT_COMBINATIONS) {
      out.set(alertsDim(source), {
        values: ['none', 'unavailable'],
        why: `the alerts of source ${source}: more label combinations (${size}) than the analysis makes`,
      });
      continue;
    }
    const seen = new Map<string, AlertClass>();
    const statuses: Array<{ inhibited?: true; silencedBeforeTheRun?: true }> = [
      {},
      { inhibited: true },
      { silencedBeforeTheRun: true },
      { inhibited: true, silencedBeforeTheRun: true },
    ];
    for (let n = 0; n < size; n++) {
      const assigned: Record<string, string> = {};
      let rest = n;
      for (const [name, values] of labels) {
        const value = values[rest % values.length];
        rest = Math.floor(rest / values.length);
        if (value !== '') assigned[name] = value;
      }
      for (const status of statuses) {
        const cls: AlertClass = { labels: assigned, ...(filled.length > 0 ? { filled } : {}), ...status };
        const { answer, created } = alertsAnswerOf(cls, new Date(SINCE));
        const key = checks
          .map((c) =>
            checkAlerts(c, { alertmanager: { [source]: answer } }, [SOME_RUN], new Date(SINCE), created).found.length >
            0
              ? 'd'
              : 'a',
          )
          .join('');
        if (!seen.has(key)) seen.set(key, cls);
      }
    }
    const values = [...seen.values()].filter((c) => c !== 'none');
    out.set(alertsDim(source), { values: ['none', ...values, 'unavailable'] });
  }
  return out;
}

export interface SignalDim {
  name: DimName;
  values: unknown[];
  complete: boolean;
  why?: string;
}

/**
 * Why a query's classes do not stand for its answers, when they do not: another query of its
 * source could be filled to the same text (two dimensions would answer one query), or the sets
 * compared fill `{{environment}}` with different names (one dimension would answer two queries).
 */
function filledQueryGap(dim: DimName, dims: readonly DimName[], bundles: readonly PolicyBundle[]): string | undefined {
  const [source, query] = JSON.parse(dim.slice(PROM.length)) as [string, string];
  const names = placeholdersOf(query) ?? [];
  if (names.includes('environment') && !sameEnvironmentNames(bundles))
    return `its query fills {{environment}}, and the sets compared spell environment names differently (their match.environments and aliases), so the query is asked as different texts under each (not analysed)`;
  for (const other of dims) {
    const [s, q] = JSON.parse(other.slice(PROM.length)) as [string, string];
    if (s === source && canCoincide(query, q))
      return `the query ${query} can be filled to the same text as ${q} for some runs (queries that can meet are not analysed)`;
  }
  return undefined;
}

/** The signal dimensions of these documents' analysed `prometheus` and `alerts` rules, for the sets of these bundles. */
export function signalDims(docs: readonly Doc[], bundles: readonly PolicyBundle[] = []): SignalDim[] {
  const out: SignalDim[] = [];
  const prom = promClasses(signalRules(docs, 'prometheus'));
  for (const [name, values] of prom) {
    const why = filledQueryGap(name, [...prom.keys()], bundles);
    out.push({ name, values, complete: why === undefined, ...(why === undefined ? {} : { why }) });
  }
  for (const [name, c] of alertClasses(signalRules(docs, 'alerts')))
    out.push({ name, values: c.values, complete: c.why === undefined, ...(c.why ? { why: c.why } : {}) });
  return out;
}

const UNAVAILABLE = 'the source did not answer (prove)';

function promAnswer(cls: PromClass, now: Date): QueryAnswer {
  if (cls === 'unavailable') return { error: UNAVAILABLE };
  if (cls === 'refused') return { error: 'bad_data: the query was refused (prove)', badQuery: true };
  const at = Math.floor(now.getTime() / 1000);
  if (cls === 'no samples') return { resultType: 'vector', result: [] };
  const text = Number.isFinite(cls) ? String(cls) : cls > 0 ? '+Inf' : '-Inf';
  return { resultType: 'vector', result: [{ metric: {}, value: [at, text] }] };
}

/**
 * A source's answer for an alert class at `now`; a silence that began before the run needs the
 * run's start (`execution.created`, an hour before now; the silence two hours before).
 */
export function alertsAnswerOf(
  cls: AlertClass,
  now: Date,
  run: RunValues = SOME_RUN,
): { answer: AlertsAnswer; created?: string } {
  if (cls === 'none') return { answer: { alerts: [] } };
  if (cls === 'unavailable') return { answer: { error: UNAVAILABLE } };
  const labels = { ...cls.labels };
  for (const name of cls.filled ?? []) {
    if (!Object.hasOwn(labels, name)) continue;
    const text = parsePlaceholderText(labels[name]);
    const value = typeof text === 'string' ? undefined : fillText(text, run);
    labels[name] = value !== undefined && 'text' in value ? value.text : `${OTHER}-label-value`;
  }
  const silenced = cls.silencedBeforeTheRun === true;
  const status: AlertFact['status'] = {
    state: cls.inhibited || silenced ? 'suppressed' : 'active',
    ...(silenced ? { silencedBy: ['prove-silence'] } : {}),
    ...(cls.inhibited ? { inhibitedBy: ['prove-inhibiting-alert'] } : {}),
  };
  const alert: AlertFact = { labels, status };
  if (!silenced) return { answer: { alerts: [alert] } };
  const hour = 3_600_000;
  const startsAt = new Date(now.getTime() - 2 * hour).toISOString();
  return {
    answer: { alerts: [alert], silences: { 'prove-silence': { startsAt } } },
    created: new Date(now.getTime() - hour).toISOString(),
  };
}

/** The signal facts of a run (in the shape `eval --signals` reads) from its signal dimensions, and the run's start a silenced alert needs. */
export function signalFactsOf(
  dims: ReadonlyArray<{ name: DimName }>,
  value: (name: DimName) => unknown,
  now: Date,
  filled: (query: string) => string[] = (query) => [query],
  run: RunValues = SOME_RUN,
): { signals: SignalFacts; created?: string } {
  const signals: SignalFacts = {};
  let created: string | undefined;
  for (const { name } of dims) {
    if (name.startsWith(PROM)) {
      const [source, query] = JSON.parse(name.slice(PROM.length)) as [string, string];
      signals.prometheus ??= {};
      signals.prometheus[source] ??= {};
      // The run's own texts of the query (placeholders filled as each set fills them), one answer under each.
      for (const text of filled(query)) signals.prometheus[source][text] = promAnswer(value(name) as PromClass, now);
    } else if (name.startsWith(ALERTS)) {
      const made = alertsAnswerOf(value(name) as AlertClass, now, run);
      signals.alertmanager ??= {};
      signals.alertmanager[name.slice(ALERTS.length)] = made.answer;
      created ??= made.created;
    }
  }
  return { signals, ...(created === undefined ? {} : { created }) };
}
