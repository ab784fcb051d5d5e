import type { CompiledException, ExceptionSettings } from '../core/compiled';
import { formatDuration } from '../syntax/duration';
import type { LoadProblem } from './load-error';

/**
 * The longest the mint command lets an exception run when the set declares no maximum. Loading
 * checks no maximum then: sets written before ExceptionSettings keep loading (docs/approvals.md).
 */
export const DEFAULT_MAX_EXCEPTION_MS = 7 * 86_400_000;

/** An exception expiring sooner than this gets a warning: someone may still count on it. */
export const EXPIRES_SOON_MS = 86_400_000;

/** What to write when an Exception lacks a field: the fix, not only the fault. */
export const EXCEPTION_FIELD_HINTS: Readonly<Record<string, string>> = {
  reason: 'say why the policy may be waived (the change, the approval); `preflight-gate exception --reason` writes it',
  expires:
    'an exception stops by itself: an RFC 3339 time such as "2026-06-14T18:00:00Z" (`preflight-gate exception --expires-in 4h` writes it)',
  owner: 'who answers for the waiver, e.g. an email',
  policy: 'the name of the policy it waives',
};

export interface ExceptionCheckInput {
  exceptions: readonly CompiledException[];
  /** Where a field of an exception is written. */
  locate(e: CompiledException, field: 'policy' | 'expires'): { file: string; line: number; col: number };
  declaredPolicies: ReadonlySet<string>;
  settings?: ExceptionSettings;
  now: Date;
}

const at = (
  e: CompiledException,
  input: ExceptionCheckInput,
  field: 'policy' | 'expires',
  message: string,
  severity: LoadProblem['severity'],
): LoadProblem => ({ ...input.locate(e, field), path: field, message, severity });

/** The problems of one exception in its set: a waived policy that does not exist, an expiry past the maximum, soon or gone. */
function problemsOf(e: CompiledException, input: ExceptionCheckInput): LoadProblem[] {
  if (!input.declaredPolicies.has(e.policy)) {
    return [at(e, input, 'policy', `exception "${e.name}" waives policy "${e.policy}", which does not exist`, 'error')];
  }
  const left = e.expires.getTime() - input.now.getTime();
  const until = e.expires.toISOString();
  if (left <= 0)
    return [
      at(e, input, 'expires', `exception "${e.name}" expired at ${until} and no longer applies; remove it`, 'warning'),
    ];
  const { settings } = input;
  if (settings && left > settings.maxDurationMs) {
    const latest = new Date(input.now.getTime() + settings.maxDurationMs).toISOString();
    const where = `${settings.source.file}:${settings.source.line}`;
    return [
      at(
        e,
        input,
        'expires',
        `exception "${e.name}" runs until ${until}, ${formatDuration(left)} from now, past the maximum of ${settings.maxDuration} the set declares (ExceptionSettings at ${where}); expire it by ${latest}`,
        'error',
      ),
    ];
  }
  if (left <= EXPIRES_SOON_MS) {
    return [
      at(
        e,
        input,
        'expires',
        `exception "${e.name}" expires within a day (at ${until}, in ${formatDuration(left)}); mint a new one if it is still needed`,
        'warning',
      ),
    ];
  }
  return [];
}

/** Every exception checked against its set (docs/approvals.md#what-validate-checks). */
export function exceptionProblems(input: ExceptionCheckInput): LoadProblem[] {
  return input.exceptions.flatMap((e) => problemsOf(e, input));
}
