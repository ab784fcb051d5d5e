import { trips, type DenyWhen } from './deny-when';
import type { RunValues } from './placeholder-text';
import { filledPerRun } from './filled-per-run';
import { resolvePromQuery, type PromQuery } from './prom-query';
import { sampleValue } from '../../syntax/sample-value';
import { own, type PromSample, type SignalFacts } from '../facts/signal-facts';
import { sourceText } from './source-kind';
import type { Checked } from '../core/checked';
import type { SignalRead, Violation } from '../core/decision';
import { clip, listCapped, unavailable, type OnUnavailable } from './signal-violation';
import { deadManFinding, type DeadMan } from './dead-man';

/** A `prometheus` rule, compiled (docs/signals.md, "What a result means"). */
export interface PrometheusCheck {
  source: string;
  query: PromQuery;
  /** Absent: deny when the result has any sample (as an alerting rule fires). */
  denyWhen?: DenyWhen;
  /** What an empty result means (default allow: nothing matched, as for an alerting rule). */
  onEmpty: 'allow' | 'deny';
  onUnavailable: OnUnavailable;
  /** Said first in the reason, e.g. "the error budget burns too fast". */
  reason?: string;
  /** The query must keep answering with data while a run is in progress (docs/guard.md, "Dead man"). */
  deadMan?: DeadMan;
}

export const MAX_SAMPLES_TEXT = 300;

/** `{job="api"} 0.031`: a sample as the reason lists it. */
function sampleText(s: PromSample): string {
  const labels = Object.keys(s.metric)
    .sort()
    .map((k) => `${k}=${JSON.stringify(s.metric[k])}`)
    .join(',');
  return `${labels === '' ? '' : `{${clip(labels, 120)}} `}${s.value[1]}`;
}

/** `silent`: no number came back (no samples, or only NaN), what a dead man counts as no data. */
type Judged = { violation?: Omit<Violation, 'signal'>; result: string; silent?: string };

/** The samples against the rule: which trip it, and what an empty result or NaN-only result means. */
function judgeSamples(check: PrometheusCheck, samples: readonly PromSample[], what: string): Judged {
  const result = samples.length === 0 ? 'no samples' : listCapped(samples.map(sampleText), MAX_SAMPLES_TEXT);
  const odd = samples.find((s) => sampleValue(s.value[1]) === undefined);
  if (odd)
    return {
      result,
      violation: {
        reason: `cannot decide: ${what} returned a value that is not a number: ${clip(sampleText(odd), 200)}`,
        status: 'undecidable',
      },
    };
  const numbers = samples.filter((s) => !Number.isNaN(sampleValue(s.value[1])));
  if (numbers.length === 0) {
    if (check.deadMan) return { result, silent: `returned ${samples.length === 0 ? 'no samples' : 'only NaN'}` };
    if (check.onEmpty === 'allow') return { result };
    return {
      result,
      violation: {
        reason: `cannot decide: ${what} returned ${samples.length === 0 ? 'no samples' : 'only NaN'}${check.denyWhen ? ` to compare with ${check.denyWhen.text}` : ''} (onEmpty: deny)`,
        status: 'undecidable',
      },
    };
  }
  const hits = check.denyWhen
    ? numbers.filter((s) => trips(check.denyWhen as DenyWhen, sampleValue(s.value[1]) as number))
    : numbers;
  if (hits.length === 0) return { result };
  const cmp = check.denyWhen ? ` ${check.denyWhen.text}` : '';
  return {
    result,
    violation: {
      reason: `${what} returned ${listCapped(hits.map(sampleText), MAX_SAMPLES_TEXT)}${cmp}`,
      value: clip(hits.map((s) => s.value[1]).join(', '), 200),
    },
  };
}

/** A dead man's finding for the query, silent as `silence` says (dead-man.ts). */
const silentFinding = (
  check: PrometheusCheck,
  deadMan: DeadMan,
  query: string,
  what: string,
  silence: string,
  signals: SignalFacts | undefined,
  read: SignalRead,
  now: Date,
) => deadManFinding(deadMan, { kind: 'prometheus', source: check.source, query }, what, silence, signals, read, now);

/**
 * Pure: the rule's query for each of the run's environments, judged from the signal facts gathered
 * before the decision. A query Prometheus refused, a range vector or a string result cannot decide;
 * a source that could not answer cannot decide unless the policy says onUnavailable: allow.
 * What was read for each query goes with what was found, pass or deny (explanations).
 */
export function checkPrometheus(
  check: PrometheusCheck,
  signals: SignalFacts | undefined,
  runs: readonly RunValues[],
  now: Date,
): Checked {
  const source = sourceText('prometheus', check.source);
  const answers = own(signals?.prometheus, check.source);
  const out: Violation[] = [];
  const reads: SignalRead[] = [];
  const lead = check.reason ? `${check.reason}: ` : '';
  for (const filled of filledPerRun(runs, (run) => resolvePromQuery(check.query, run), 'the query needs')) {
    if ('reason' in filled) {
      out.push(filled);
      continue;
    }
    const query = filled.text;
    const answer = own(answers, query);
    const what = `query ${clip(query, 200)} on ${source}`;
    const read: SignalRead = { source, query, result: '', readAt: answer?.readAt };
    reads.push(read);
    if (answer === undefined) {
      read.result = 'not read';
      out.push({
        reason: `cannot decide: ${what} was not run (no signal facts for it)`,
        status: 'undecidable',
        signal: read,
      });
    } else if ('error' in answer) {
      read.result = `error: ${answer.error}`;
      const found = answer.badQuery
        ? {
            reason: `cannot decide: Prometheus refused ${what} (${answer.error})`,
            status: 'undecidable' as const,
            signal: read,
          }
        : check.deadMan
          ? silentFinding(check, check.deadMan, query, what, `could not be read (${answer.error})`, signals, read, now)
          : unavailable(what, answer.error, check.onUnavailable, read);
      if (found) out.push(found);
    } else if (answer.resultType === 'vector' || (answer.resultType === 'scalar' && check.denyWhen)) {
      const samples = answer.resultType === 'vector' ? answer.result : [{ metric: {}, value: answer.result }];
      const judged = judgeSamples(check, samples, what);
      read.result = judged.result;
      if (judged.silent !== undefined && check.deadMan) {
        // Not the rule's `reason`: that says what a value means, and a silent query has none.
        const found = silentFinding(check, check.deadMan, query, what, judged.silent, signals, read, now);
        if (found) out.push(found);
      } else if (judged.violation)
        out.push({
          ...judged.violation,
          reason: `${lead}${judged.violation.reason}${answer.readAt ? ` (read ${answer.readAt})` : ''}`,
          signal: read,
        });
    } else {
      const why =
        answer.resultType === 'scalar'
          ? 'a scalar: give denyWhen to compare it'
          : `a ${answer.resultType === 'matrix' ? 'range vector (matrix): ask for an instant vector' : 'string'}`;
      read.result = `${answer.resultType} result`;
      out.push({ reason: `cannot decide: ${what} returned ${why}`, status: 'undecidable', signal: read });
    }
  }
  return { found: out, read: reads };
}
