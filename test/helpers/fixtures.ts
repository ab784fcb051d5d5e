import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload, WebhookPayload } from '../../src/payload/types';

export const FIXTURES = join(__dirname, '..', 'fixtures');
export const PAYLOADS = join(FIXTURES, 'payloads');

/** Every real payload Steadybit publishes (copied from shared/steadybit/examples). */
export function examplePayloadFiles(): string[] {
  return readdirSync(PAYLOADS)
    .filter((f) => f.endsWith('.json'))
    .sort();
}

export function rawPayload(file: string): Buffer {
  return readFileSync(join(PAYLOADS, file));
}

export function payload<T = WebhookPayload>(file: string): T {
  return JSON.parse(rawPayload(file).toString('utf8')) as T;
}

/** The spec's own execution example, sent as a preflight: the base of most test payloads. */
export function preflightPayload(): PreflightPayload {
  return payload<PreflightPayload>('spec-execution-example-as-preflight.json');
}

/** A deep copy of the preflight example with one change applied. */
export function preflightWith(change: (p: PreflightPayload) => void): PreflightPayload {
  const p = preflightPayload();
  change(p);
  return p;
}
