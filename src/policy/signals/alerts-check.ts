import { matcherText, matchesLabels, resolveMatchers, type Matcher, type ResolvedMatcher } from './matcher';
import { missingValueText, type RunValues } from './placeholder-text';
import { own, type AlertFact, type SignalFacts } from '../facts/signal-facts';
import { sourceText } from './source-kind';
import type { Checked } from '../core/checked';
import type { SignalRead, Violation } from '../core/decision';
import { clip, listCapped, unavailable, type OnUnavailable } from './signal-violation';
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

/** Whether the alert fires as the rule counts it: not resolved when read, and not silenced or inhibited unless asked. */
function counts(check: AlertsCheck, alert: AlertFact, readAtMs: number): boolean {
  if (alert.endsAt !== undefined && Date.parse(alert.endsAt) <= readAtMs) return false;
  if (!check.includeSilenced && (alert.status?.silencedBy?.length ?? 0) > 0) return false;
  if (!check.includeInhibited && (alert.status?.inhibitedBy?.length ?? 0) > 0) return false;
  return true;
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
 * What was read for each query goes with what was found, pass or deny (explanations).
 */
export function checkAlerts(
  check: AlertsCheck,
  signals: SignalFacts | undefined,
  runs: readonly RunValues[],
  now: Date,
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
    const firing = answer.alerts.filter((a) => counts(check, a, readAtMs) && matchesLabels(resolved, a.labels));
    read.result = `${firing.length} matching alert${firing.length === 1 ? '' : 's'} of ${answer.alerts.length}`;
    if (firing.length === 0) continue;
    const names = [...new Set(firing.map((a) => a.labels.alertname ?? '(no alertname)'))];
    out.push({
      reason: `${firing.length} alert${firing.length === 1 ? '' : 's'} matching ${query} firing in ${source}${answer.readAt ? ` (read ${answer.readAt})` : ''}: ${listCapped(firing.map(alertText), MAX_ALERTS_TEXT)}`,
      value: clip(names.join(', '), 200),
      signal: read,
    });
  }
  return { found: out, read: reads };
}
