import jsonLogic from 'json-logic-js';
import { fillJsonPath } from './json-path-text';
import type { PlaceholderText, RunValues } from './placeholder-text';
import { filledPerRun } from './filled-per-run';
import { own, type SignalFacts } from '../facts/signal-facts';
import { sourceText } from './source-kind';
import type { Checked } from '../core/checked';
import type { SignalRead, Violation } from '../core/decision';
import { clip, unavailable, type OnUnavailable } from './signal-violation';

/** A json-logic expression checked at load time, run on `{status, body}`. */
export type JsonLogicFn = (data: unknown) => unknown;

/** A `json` rule, compiled (docs/attacked-services.md, "A generic JSON signal"). */
export interface JsonCheck {
  source: string;
  path: PlaceholderText;
  /** Truthy on the answer: the run is denied. */
  denyWhen: JsonLogicFn;
  /** Said with the denial: a value from the answer (e.g. the incidents' titles). */
  detail?: JsonLogicFn;
  reason: string;
  onUnavailable: OnUnavailable;
}

const text = (value: unknown) => (typeof value === 'string' ? value : (JSON.stringify(value) ?? String(value)));

/** Judges one answer; a throwing expression cannot decide. */
function judge(
  check: JsonCheck,
  data: { status: number; body: unknown },
  what: string,
): { violation?: Violation; result: string } {
  let verdict: boolean;
  let detail = '';
  try {
    verdict = jsonLogic.truthy(check.denyWhen(data));
    if (verdict && check.detail) detail = clip(text(check.detail(data)), 300);
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return {
      result: 'error in denyWhen',
      violation: { reason: `cannot decide: denyWhen failed on the answer of ${what} (${why})`, status: 'undecidable' },
    };
  }
  const result = `HTTP ${data.status}, denyWhen ${verdict ? 'true' : 'false'}`;
  if (!verdict) return { result };
  const violation: Violation = { reason: `${check.reason}: ${what}${detail === '' ? '' : ` answered ${detail}`}` };
  if (detail !== '') violation.value = detail;
  return { result, violation };
}

/**
 * Pure: the rule's path for each of the run's value sets (environments, attacked services), judged
 * from the answers gathered before the decision. An endpoint that could not answer cannot decide
 * unless the policy says onUnavailable: allow; a path never read cannot decide.
 */
export function checkJson(check: JsonCheck, signals: SignalFacts | undefined, runs: readonly RunValues[]): Checked {
  const source = sourceText('json', check.source);
  const answers = own(signals?.json, check.source);
  const out: Violation[] = [];
  const reads: SignalRead[] = [];
  for (const filled of filledPerRun(runs, (run) => fillJsonPath(check.path, run), 'the path needs')) {
    if ('reason' in filled) {
      out.push(filled);
      continue;
    }
    const path = filled.text;
    const answer = own(answers, path);
    const what = `GET ${clip(path, 200)} on ${source}${answer?.readAt ? ` (read ${answer.readAt})` : ''}`;
    const read: SignalRead = { source, query: path, result: '', readAt: answer?.readAt };
    reads.push(read);
    if (answer === undefined) {
      read.result = 'not read';
      out.push({
        reason: `cannot decide: GET ${clip(path, 200)} on ${source} was not asked (no signal facts for it)`,
        status: 'undecidable',
        signal: read,
      });
    } else if ('error' in answer) {
      read.result = `error: ${answer.error}`;
      out.push(unavailable(`GET ${clip(path, 200)} on ${source}`, answer.error, check.onUnavailable, read));
    } else {
      const judged = judge(check, answer, what);
      read.result = judged.result;
      if (judged.violation) out.push({ ...judged.violation, signal: read });
    }
  }
  return { found: out, read: reads };
}
