/** What a signal rule read: shown by explanations (the query, its result, when it was read). */
export interface SignalRead {
  source: string;
  /** The Alertmanager matchers or the PromQL query, placeholders filled. */
  query: string;
  /** What came back, briefly: `2 alerts`, `0.031`, `no samples`, or the error. */
  result: string;
  readAt?: string;
}

/** One thing a signal rule found, or could not judge. */
export interface SignalViolation {
  reason: string;
  value?: string;
  /** The rule could not decide (source away, query refused, value missing): deny. */
  undecidable?: boolean;
  /** The source could not answer and the policy says `onUnavailable: allow`: said, but does not deny. */
  advisory?: boolean;
  read?: SignalRead;
}

export type OnUnavailable = 'deny' | 'allow';

/** The reason for a source that could not answer, and whether the policy lets the run through anyway. */
export function unavailable(what: string, error: string, onUnavailable: OnUnavailable, read: SignalRead): SignalViolation {
  if (onUnavailable === 'allow') return { reason: `${what} could not be read (${error}); allowed anyway because the policy says onUnavailable: allow`, advisory: true, read };
  return { reason: `cannot decide: ${what} could not be read (${error})`, undecidable: true, read };
}

/** Text cut to `max` characters, marked with an ellipsis. */
export const clip = (text: string, max: number) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);

/** `a; b; c (+4 more)`, at most `max` characters. */
export function listCapped(items: readonly string[], max: number): string {
  let out = '';
  let shown = 0;
  for (const item of items) {
    const next = `${shown === 0 ? '' : '; '}${item}`;
    const more = items.length - shown - 1 > 0 ? ` (+${items.length - shown - 1} more)`.length : 0;
    if (out.length + next.length + more > max) break;
    out += next;
    shown++;
  }
  if (shown === 0 && items.length > 0) return `${clip(items[0], max - 20)}${items.length > 1 ? ` (+${items.length - 1} more)` : ''}`;
  return shown < items.length ? `${out} (+${items.length - shown} more)` : out;
}
