import type { SignalRead, Violation } from './decision';

/**
 * What a rule's check returns for a run: what it found, and what it read from outside the payload
 * to judge it (live signals: the policy's result lists it, pass or deny; explanations).
 */
export interface Checked {
  found: readonly Violation[];
  read?: readonly SignalRead[];
}

/** Nothing found, nothing read: shared, never written to (most checks of a decision find nothing). */
export const NOTHING_FOUND: Checked = Object.freeze({ found: Object.freeze([]) });

/** A check that reads nothing but the run and its facts: what `judge` finds is all it says. */
export function findings<Input>(judge: (input: Input) => Violation[]): (input: Input) => Checked {
  return (input) => {
    const found = judge(input);
    return found.length === 0 ? NOTHING_FOUND : { found };
  };
}
