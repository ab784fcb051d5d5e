import type { SignalRead, Violation } from '../core/decision';
import type { SilentSignal, SignalFacts } from '../facts/signal-facts';
import { DURATION_WITH_UNITS_PATTERN, parseDuration } from '../../syntax/duration';
import { humanDuration } from '../../syntax/human-duration';

/** `deadMan: {after: 2m, then: stop}` on an `alerts` or `prometheus` rule, as written (docs/guard.md, "Dead man"). */
export interface DeadManSpec {
  after: string;
  then?: 'stop' | 'report';
}

/** A compiled `deadMan`: how long its signal may stay silent while a run is in progress, and what then. */
export interface DeadMan {
  afterMs: number;
  then: 'stop' | 'report';
}

/** The longest `after`: a run is watched at most EXECUTION_TTL_SECONDS, a day by default. */
const MAX_AFTER_MS = 86_400_000;

export const DEAD_MAN_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['after'],
  description:
    'The signal must keep answering while a guarded run is in progress: silent (its source cannot answer, or the query returns no data) for `after`, the run is stopped or reported; a new run is denied while it is silent (docs/guard.md, "Dead man").',
  properties: {
    after: {
      type: 'string',
      pattern: DURATION_WITH_UNITS_PATTERN,
      syntax: 'duration',
      description: 'How long the signal may stay silent while a run is in progress, e.g. 2m (at most 1d).',
    },
    then: {
      type: 'string',
      enum: ['stop', 'report'],
      default: 'stop',
      description:
        'stop (default): cancel the run (an enforce policy); report: log, count and notify, the run goes on.',
    },
  },
};

/** What the rule says elsewhere that would contradict a dead man, if it says it. */
export interface DeadManContext {
  onUnavailable?: 'deny' | 'allow';
  onEmpty?: 'allow' | 'deny';
}

/** The compiled `deadMan`, or why it cannot be (with its path inside the rule). */
export function compileDeadMan(spec: DeadManSpec, rule: DeadManContext): DeadMan | { message: string; path: string[] } {
  const afterMs = parseDuration(spec.after);
  if (afterMs === undefined || afterMs < 1000 || afterMs > MAX_AFTER_MS)
    return {
      message: `deadMan.after must be at least 1s and at most 1d, got "${spec.after}"`,
      path: ['deadMan', 'after'],
    };
  if (rule.onUnavailable === 'allow')
    return {
      message:
        'deadMan asks the signal to keep answering, onUnavailable: allow lets a source that cannot answer through: drop one of them',
      path: ['onUnavailable'],
    };
  if (rule.onEmpty !== undefined)
    return {
      message:
        'deadMan decides what no data means (silent: the run is stopped or reported after deadMan.after): drop onEmpty',
      path: ['onEmpty'],
    };
  return Object.freeze({ afterMs, then: spec.then ?? 'stop' });
}

/** Which signal is silent: the key the guard keeps its "silent since" under. */
export type SilentKey = Omit<SilentSignal, 'since'>;

export const sameSignal = (a: SilentKey, b: SilentKey): boolean =>
  a.kind === b.kind && a.source === b.source && (a.query ?? '') === (b.query ?? '');

/**
 * What a `deadMan` rule finds for one silent signal (`what` names it, `silence` says how it is
 * silent: `could not be read (...)`, `returned no samples`). At the door (no `silentSince` in the
 * facts) a run does not start on a silent signal: a violation. While a run is in progress the
 * read says since when it is silent (the first tick that found it, or now); silent for
 * `after` or longer, the rule stops the run (`then: stop`) or only says so (`then: report`: an
 * advisory finding). Pure: the time is the decision's.
 */
export function deadManFinding(
  deadMan: DeadMan,
  key: SilentKey,
  what: string,
  silence: string,
  signals: SignalFacts | undefined,
  read: SignalRead,
  now: Date,
): Violation | undefined {
  const kept = signals?.silentSince;
  if (kept === undefined)
    return {
      reason: `dead man: ${what} ${silence}; a run does not start while a signal it must keep answering is silent (deadMan)`,
      signal: read,
    };
  const since = kept.find((s) => sameSignal(s, key))?.since ?? now.toISOString();
  read.silent = { ...key, since };
  const silentMs = now.getTime() - Date.parse(since);
  if (!(silentMs >= deadMan.afterMs)) return undefined;
  return {
    reason: `dead man: ${what} has been silent since ${since} (${humanDuration(silentMs)}, deadMan.after ${humanDuration(deadMan.afterMs)}): ${silence}`,
    ...(deadMan.then === 'report' ? { status: 'advisory' as const } : {}),
    signal: read,
  };
}
