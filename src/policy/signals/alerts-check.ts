import { matcherText, matchesLabels, resolveMatchers, type Matcher, type ResolvedMatcher } from './matcher';
import { missingValueText, type RunValues } from './placeholder-text';
import { own, type AlertFact, type AlertsAnswer, type SignalFacts } from '../facts/signal-facts';
import { sourceText } from './source-kind';
import type { Checked } from '../core/checked';
import type { SignalRead, Violation } from '../core/decision';
import { clip, listCapped, unavailable, type OnUnavailable } from './signal-violation';
import { silencedSince } from './silenced-since';
import { deadManFinding, type DeadMan } from './dead-man';

/** An `alerts` rule, compiled: which alerts of which source stop a run. */
export interface AlertsCheck {
  source: string;
  matchers: readonly Matcher[];
  includeSilenced: boolean;
  includeInhibited: boolean;
  onUnavailable: OnUnavailable;
  /** The source must keep answering while a run is in progress (docs/guard.md, "Dead man"). */
  deadMan?: DeadMan;
}

/** Room the alert list gets in a reason (Steadybit shows the whole decision message in the run view). */
export const MAX_ALERTS_TEXT = 400;

type Listed = Extract<AlertsAnswer, { alerts: unknown }>;

/**
 * Whether the alert fires as the rule counts it: not resolved when read, not inhibited unless
 * asked, and not silenced unless asked, where only a silence that began before the run started
 * hides it (silenced-since.ts). A counted alert that is silenced says why it still counts.
 */
function counts(
  check: AlertsCheck,
  alert: AlertFact,
  readAtMs: number,
  answer: Listed,
  since: string | undefined,
): { counts: false } | { counts: true; note?: string } {
  if (alert.endsAt !== undefined && Date.parse(alert.endsAt) <= readAtMs) return { counts: false };
  if (!check.includeInhibited && (alert.status?.inhibitedBy?.length ?? 0) > 0) return { counts: false };
  if (check.includeSilenced || (alert.status?.silencedBy?.length ?? 0) === 0) return { counts: true };
  const verdict = silencedSince(alert, answer, since);
  return verdict.hidden ? { counts: false } : { counts: true, note: verdict.why };
}

/** `HighErrorRate{namespace="prod",severity="critical"} since 2026-01-05T09:58:00Z`. */
export function alertText(alert: AlertFact): string {
  const { alertname, ...rest } = alert.labels;
  const labels = Object.keys(rest)
    .sort()
    .map((k) => `${k}=${JSON.stringify(rest[k])}`)
    .join(',');
  return `${clip(`${alertname ?? '(no alertname)'}{${labels}}`, 160)}${alert.startsAt ? ` since ${alert.startsAt}` : ''}`;
}

const matchersText = (ms: readonly ResolvedMatcher[]) => `{${ms.map(matcherText).join(', ')}}`;

/**
 * Pure: the firing alerts of the source that match the rule for each of the run's environments,
 * from the signal facts gathered before the decision. A source that could not answer cannot decide
 * (or is said and let through with onUnavailable: allow); facts that were never gathered cannot decide.
 * What was read for each query goes with what was found, pass or deny (explanations). `since`:
 * when the run started (its execution's `created`): a silence that began after it hides nothing.
 */
export function checkAlerts(
  check: AlertsCheck,
  signals: SignalFacts | undefined,
  runs: readonly RunValues[],
  now: Date,
  since?: string,
): Checked {
  const source = sourceText('alertmanager', check.source);
  const answer = own(signals?.alertmanager, check.source);
  const out: Violation[] = [];
  const reads: SignalRead[] = [];
  const asked = new Set<string>();
  for (const run of runs) {
    const resolved = resolveMatchers(check.matchers, run);
    if ('missing' in resolved) {
      out.push({
        reason: `cannot decide: the alert matchers need {{${resolved.missing}}} but ${missingValueText(resolved.missing, run)}`,
        status: 'undecidable',
      });
      continue;
    }
    const query = matchersText(resolved);
    if (asked.has(query)) continue;
    asked.add(query);
    const read: SignalRead = { source, query, result: '', readAt: answer?.readAt };
    reads.push(read);
    if (answer === undefined) {
      read.result = 'not read';
      out.push({
        reason: `cannot decide: the alerts of ${source} were not read (no signal facts for it)`,
        status: 'undecidable',
        signal: read,
      });
      continue;
    }
    if ('error' in answer) {
      read.result = `error: ${answer.error}`;
      const what = `the alerts of ${source}`;
      const found = check.deadMan
        ? deadManFinding(
            check.deadMan,
            { kind: 'alertmanager', source: check.source },
            source,
            `could not be read (${answer.error})`,
            signals,
            read,
            now,
          )
        : unavailable(what, answer.error, check.onUnavailable, read);
      if (found) out.push(found);
      continue;
    }
    const readAtMs = answer.readAt === undefined ? now.getTime() : Date.parse(answer.readAt);
    const firing: Array<{ alert: AlertFact; note?: string }> = [];
    for (const alert of answer.alerts) {
      if (!matchesLabels(resolved, alert.labels)) continue;
      const counted = counts(check, alert, readAtMs, answer, since);
      if (counted.counts) firing.push({ alert, note: counted.note });
    }
    read.result = `${firing.length} matching alert${firing.length === 1 ? '' : 's'} of ${answer.alerts.length}`;
    if (firing.length === 0) continue;
    const names = [...new Set(firing.map(({ alert }) => alert.labels.alertname ?? '(no alertname)'))];
    const texts = firing.map(({ alert, note }) => `${alertText(alert)}${note ? ` (${note})` : ''}`);
    out.push({
      reason: `${firing.length} alert${firing.length === 1 ? '' : 's'} matching ${query} firing in ${source}${answer.readAt ? ` (read ${answer.readAt})` : ''}: ${listCapped(texts, MAX_ALERTS_TEXT)}`,
      value: clip(names.join(', '), 200),
      signal: read,
    });
  }
  return { found: out, read: reads };
}
