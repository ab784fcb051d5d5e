import { createLogger } from '../../../src/common/logger';
import type { PolicyBundle } from '../../../src/policy/core/compiled';
import type { Facts } from '../../../src/policy/facts/facts';
import { factGatherer } from '../../../src/policy/engine/fact-gatherer';
import { MemoryStateStore } from '../../../src/state/memory-state-store';
import { stateFactSource } from '../../../src/state/state-fact-source';
import type { PreflightPayload } from '../../../src/payload/types';

/**
 * The facts each variant meets in a freshly started server: its memory store, no events yet (the
 * benchmark sends none). Gathered the way the route gathers them, so in-process decisions match the server's.
 */
export async function freshFacts(
  bundle: PolicyBundle,
  variants: ReadonlyArray<{ payload: PreflightPayload }>,
  now = new Date(),
): Promise<Facts[]> {
  const source = stateFactSource({
    store: new MemoryStateStore({ executionTtlMs: 4 * 3600_000, eventToleranceMs: 900_000 }),
    onUnavailable: 'deny',
    logger: createLogger('error', { silent: true }),
  });
  const gather = factGatherer([source]);
  return Promise.all(
    variants.map(async (v) => {
      const gathered = await gather(bundle, v.payload, now);
      if (!gathered.ok) throw new Error(gathered.unavailable.message);
      return gathered.facts;
    }),
  );
}
