import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { validatePreflightPayload } from '../src/payload/validate-payload';
import { decide } from '../src/policy/decide';
import type { PolicyBundle } from '../src/policy/compiled';
import type { PreflightPayload } from '../src/policy/types';
import { signatureHeader } from '../src/signature/sign';
import { freshStates } from './empty-state';
import { repoRoot } from './paths';
import { ALIAS_IDS, teamKey } from './universe';

export interface PayloadVariant {
  name: string;
  payload: PreflightPayload;
  /** The exact bytes sent, and their signature. */
  body: Buffer;
  signature: string;
}

type Change = Partial<Record<'teamKey' | 'experimentKey' | 'environment' | 'createdVia', string | undefined>>;

const CHANGES: Array<[string, Change]> = [
  ['team run in dev', { teamKey: teamKey(0), experimentKey: `${teamKey(0)}-1`, environment: 'dev' }],
  ['team run in production (alias id)', { teamKey: teamKey(1), experimentKey: `${teamKey(1)}-17`, environment: ALIAS_IDS.production }],
  ['team run in payments-prod', { teamKey: teamKey(2), experimentKey: `${teamKey(2)}-150`, environment: 'payments-prod' }],
  ['unknown team in sandbox', { teamKey: 'NOBODY', experimentKey: 'NOBODY-1', environment: 'sandbox' }],
  ['scheduled team run in qa', { teamKey: teamKey(3), experimentKey: `${teamKey(3)}-12`, environment: 'qa', createdVia: 'SCHEDULE' }],
];

/** The spec's execution example (test/fixtures/payloads), as every variant starts. */
export function examplePreflight(): PreflightPayload {
  return JSON.parse(readFileSync(join(repoRoot(), 'test', 'fixtures', 'payloads', 'spec-execution-example-as-preflight.json'), 'utf8')) as PreflightPayload;
}

/** Variants of `base` (the spec's execution example unless given), signed with `secret`. */
export function payloadVariants(secret: string, base: PreflightPayload = examplePreflight()): PayloadVariant[] {
  return CHANGES.map(([name, change]) => {
    const payload = structuredClone(base);
    for (const [key, value] of Object.entries(change) as Array<[keyof Change, string | undefined]>) {
      if (value === undefined) delete payload.execution[key];
      else payload.execution[key] = value;
    }
    const checked = validatePreflightPayload(payload);
    if (!checked.ok) throw new Error(`benchmark payload "${name}" is not a valid preflight payload`);
    const body = Buffer.from(JSON.stringify(payload));
    return { name, payload, body, signature: signatureHeader(secret, body) };
  });
}

/**
 * The status each variant must get: 200 from the baseline; from preflight-gate the engine's own
 * decision, with the state a fresh server holds (no events).
 */
export async function expectedStatuses(variants: readonly PayloadVariant[], bundle: PolicyBundle | undefined): Promise<number[]> {
  if (!bundle) return variants.map(() => 200);
  const states = await freshStates(bundle, variants);
  return variants.map((v, i) => (decide(bundle, v.payload, states[i], new Date(), { decisionId: 'bench-expected' }).allowed ? 200 : 403));
}
