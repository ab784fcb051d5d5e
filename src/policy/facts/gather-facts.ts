import type { PreflightPayload } from '../../payload/types';
import type { EnvironmentDirectory } from '../engine/environments';
import type { Facts } from './facts';
import type { Need, NeedKind } from './need';

/** A source's answer: the part of the facts it gathered, or why it could not (a value, never a throw). */
export type Gathered =
  | { ok: true; facts: Facts }
  | { ok: false; unavailable: { source: string; message: string } };

/**
 * Where facts come from (the state store today; the platform API and live signals plug in the
 * same way, one file each): the need kinds it answers, and how it gathers them for one run.
 * A source that cannot answer returns `unavailable` (the run is then refused, fail closed); it only
 * throws for a bug.
 */
export interface FactSource {
  /** For messages and logs, e.g. `state store`. */
  name: string;
  kinds: readonly NeedKind[];
  /**
   * Gathers the answers to `needs` (all of its kinds) for this run: its own part of the facts.
   * `directory`: the bundle's environment names, so a need with `{{environment}}` is filled as its rule will read it.
   */
  gather(needs: readonly Need[], payload: PreflightPayload, now: Date, directory?: EnvironmentDirectory): Promise<Gathered>;
}

const NOTHING_NEEDED: Gathered = Object.freeze({ ok: true, facts: Object.freeze({}) });

/**
 * Asks each source only for the needs of its kinds (the bundle's rules declared them at load), all
 * at once, and joins their parts into one Facts. A need no source answers is left out: its rule
 * cannot decide. The first source that is unavailable is the answer.
 */
export async function gatherFacts(needs: readonly Need[], sources: readonly FactSource[], payload: PreflightPayload, now: Date, directory?: EnvironmentDirectory): Promise<Gathered> {
  const asked: Array<Promise<Gathered>> = [];
  for (const source of sources) {
    const own = needs.filter((need) => source.kinds.includes(need.kind));
    if (own.length > 0) asked.push(source.gather(own, payload, now, directory));
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
