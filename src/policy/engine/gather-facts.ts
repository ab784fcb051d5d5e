import type { PreflightPayload } from '../../payload/types';
import type { EnvironmentDirectory } from '../core/environment-directory';
import type { FactSource, Gathered } from '../core/fact-source';
import type { EnvironmentFacts } from '../facts/environment-facts';
import type { Facts } from '../facts/facts';
import type { Need } from '../facts/need';

const NOTHING_NEEDED: Gathered = Object.freeze({ ok: true, facts: Object.freeze({}) });

/**
 * Asks each source only for the needs of its kinds (the bundle's rules declared them at load), all
 * at once, and joins their parts into one Facts. A source that fills `{{environment}}`
 * (readsEnvironmentNames) is asked once the environment names are in, with them, so it asks about
 * the name the decision will read. A need no source answers is left out: its rule cannot decide.
 * The first source that is unavailable is the answer.
 */
export async function gatherFacts(
  needs: readonly Need[],
  sources: readonly FactSource[],
  payload: PreflightPayload,
  now: Date,
  directory?: EnvironmentDirectory,
): Promise<Gathered> {
  const asked: Array<Promise<Gathered>> = [];
  const namers: Array<Promise<Gathered>> = [];
  const readers: Array<{ source: FactSource; own: Need[] }> = [];
  for (const source of sources) {
    const own = needs.filter((need) => source.kinds.includes(need.kind));
    if (own.length === 0) continue;
    if (source.readsEnvironmentNames) {
      readers.push({ source, own });
      continue;
    }
    const answer = source.gather(own, payload, now, directory);
    asked.push(answer);
    if (own.some((need) => need.kind === 'environment-names')) namers.push(answer);
  }
  if (readers.length > 0) {
    const named = await Promise.all(namers);
    const parts = named.flatMap((a) => (a.ok && a.facts.environments ? [a.facts.environments] : []));
    const environments: EnvironmentFacts | undefined = parts.length > 0 ? Object.assign({}, ...parts) : undefined;
    for (const { source, own } of readers) asked.push(source.gather(own, payload, now, directory, environments));
  }
  if (asked.length === 0) return NOTHING_NEEDED;
  const answers = await Promise.all(asked);
  const facts: Facts = {};
  for (const answer of answers) {
    if (!answer.ok) return answer;
    Object.assign(facts, answer.facts);
  }
  return { ok: true, facts };
}
