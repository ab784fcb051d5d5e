import { createLogger } from '../src/observability/logger';
import type { PolicyBundle } from '../src/policy/compiled';
import type { StateSnapshot } from '../src/policy/types';
import { MemoryStateStore } from '../src/state/memory-state-store';
import { preflightStateLoader } from '../src/state/preflight-state';
import type { PayloadVariant } from './payload-variants';

/**
 * The state each variant meets in a freshly started server: its memory store, no events yet (the
 * benchmark sends none). Loaded the way the route loads it, so in-process decisions match the server's.
 */
export async function freshStates(bundle: PolicyBundle, variants: readonly PayloadVariant[]): Promise<Array<StateSnapshot | undefined>> {
  const load = preflightStateLoader({
    store: new MemoryStateStore({ executionTtlMs: 4 * 3600_000, eventToleranceMs: 900_000 }),
    onUnavailable: 'deny',
    logger: createLogger('error', { silent: true }),
    clock: () => new Date(),
  });
  return Promise.all(variants.map((v) => load(v.payload, bundle)));
}
