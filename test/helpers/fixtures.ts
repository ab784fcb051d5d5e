import { readFileSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { PreflightPayload, WebhookPayload } from '../../src/payload/types';

export const FIXTURES = join(__dirname, '..', 'fixtures');
export const PAYLOADS = join(FIXTURES, 'payloads');

/**
 * The spec's execution example sent as a preflight: the base of most test payloads. It ships with
 * the service (the playground's first payload, the README's Try-it), so it lives in src/payload/.
 */
export const EXAMPLE_PREFLIGHT = join(
  __dirname,
  '..',
  '..',
  'src',
  'payload',
  'spec-execution-example-as-preflight.json',
);

/** Every real payload Steadybit publishes (copied from shared/steadybit/examples), and the example preflight. */
export function examplePayloadFiles(): string[] {
  return [...readdirSync(PAYLOADS).filter((f) => f.endsWith('.json')), basename(EXAMPLE_PREFLIGHT)].sort();
}

/** A payload by file name: one of test/fixtures/payloads/, or the example preflight by its name. */
export function rawPayload(file: string): Buffer {
  return readFileSync(file === basename(EXAMPLE_PREFLIGHT) ? EXAMPLE_PREFLIGHT : join(PAYLOADS, file));
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
