import type { ArchivedFacts } from '../archive/archive-record';
import { formatDuration } from '../policy/duration';

/** `ended:1800000` -> ['ended', 1800000]; a need without a window has none. */
function split(need: string): [string, number | undefined] {
  const colon = need.indexOf(':');
  return colon === -1 ? [need, undefined] : [need.slice(0, colon), Number(need.slice(colon + 1))];
}

/**
 * The state needs of a proposed policy set that the archived facts do not answer: a fact the
 * recording set did not read at all, or a window longer than the one it read (a cool-down of 2h
 * cannot be judged from the runs of the last 30 minutes). Empty when the facts cover every need.
 */
export function missingFacts(needs: readonly string[], facts: ArchivedFacts): string[] {
  const recorded = new Map<string, number | undefined>();
  // What was asked for is what the decision had (an answer, or "not loaded" if no store answered).
  for (const need of facts.needs) {
    const [name, window] = split(need);
    const prior = recorded.get(name);
    recorded.set(name, window === undefined ? undefined : Math.max(prior ?? 0, window));
  }
  return needs.filter((need) => {
    const [name, window] = split(need);
    if (!recorded.has(name)) return true;
    const held = recorded.get(name);
    return window !== undefined && (held === undefined || held < window);
  });
}

/** A state need as a person reads it: `ended:7200000` -> `runs ended in the last 2h`. */
export function describeNeed(need: string): string {
  const [name, window] = split(need);
  if (name === 'emergencyStop') return 'the emergency stop';
  if (name === 'running') return 'the running runs';
  if (window !== undefined && (name === 'ended' || name === 'started')) return `runs ${name} in the last ${formatDuration(window)}`;
  return need;
}
