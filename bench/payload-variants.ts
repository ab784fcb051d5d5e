import type { PolicyBundle } from '../src/policy/core/compiled';
import { decide } from '../src/policy/engine/decide';
import type { PreflightPayload } from '../src/policy/core/decision';
import { signatureHeader } from '../src/signature/sign';
import { benchPayloads, examplePreflight } from '../test/helpers/policy-sets/bench-payloads';
import { freshFacts } from '../test/helpers/policy-sets/fresh-facts';

export interface PayloadVariant {
  name: string;
  payload: PreflightPayload;
  /** The exact bytes sent, and their signature. */
  body: Buffer;
  signature: string;
}

/** The benchmark payloads (test/helpers/policy-sets/bench-payloads.ts) of `base`, as bytes signed with `secret`. */
export function payloadVariants(secret: string, base: PreflightPayload = examplePreflight()): PayloadVariant[] {
  return benchPayloads(base).map(({ name, payload }) => {
    const body = Buffer.from(JSON.stringify(payload));
    return { name, payload, body, signature: signatureHeader(secret, body) };
  });
}

/**
 * The status each variant must get: 200 from the floor; from preflight-gate the engine's own
 * decision, with the state a fresh server holds (no events).
 */
export async function expectedStatuses(
  variants: readonly PayloadVariant[],
  bundle: PolicyBundle | undefined,
): Promise<number[]> {
  if (!bundle) return variants.map(() => 200);
  const states = await freshFacts(bundle, variants);
  return variants.map((v, i) =>
    decide(bundle, v.payload, states[i], new Date(), { decisionId: 'bench-expected' }).allowed ? 200 : 403,
  );
}
