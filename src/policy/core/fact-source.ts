import type { PreflightPayload } from '../../payload/types';
import type { EnvironmentFacts } from '../facts/environment-facts';
import type { Facts } from '../facts/facts';
import type { Need, NeedKind } from '../facts/need';
import type { EnvironmentDirectory } from './environment-directory';

/** A source's answer: the part of the facts it gathered, or why it could not (a value, never a throw). */
export type Gathered = { ok: true; facts: Facts } | { ok: false; unavailable: { source: string; message: string } };

/**
 * Where facts come from (the state store today; the platform API and live signals plug in the
 * same way, one file each): the need kinds it answers, and how it gathers them for one run.
 * A source that cannot answer returns `unavailable` (the run is then refused, fail closed); it only
 * throws for a bug.
 */
export interface FactSource {
  /** For messages and logs, e.g. `state store`. */
  name: string;
  /** Fixed for the source's life: factGatherer works out once per bundle which source is asked for what. */
  kinds: readonly NeedKind[];
  /**
   * The source fills `{{environment}}` into what it asks, so it is asked once the environment
   * names (the `environment-names` need, Facts.environments) are gathered, and gets them.
   */
  readsEnvironmentNames?: boolean;
  /**
   * Gathers the answers to `needs` (all of its kinds) for this run: its own part of the facts.
   * `directory`: the bundle's environment names, so a need with `{{environment}}` is filled as its rule will read it;
   * `environments`: the Steadybit names gathered for the run (only for a source that readsEnvironmentNames).
   */
  gather(
    needs: readonly Need[],
    payload: PreflightPayload,
    now: Date,
    directory?: EnvironmentDirectory,
    environments?: EnvironmentFacts,
  ): Promise<Gathered>;
}
