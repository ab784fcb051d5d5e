import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload, WebhookPayload } from '../../src/payload/types';

const EXAMPLE = join(__dirname, '..', '..', 'examples', 'attacked-services', 'run.json');

/** The attacked-services example run (a checkout and a cart pod), as execution `id`. */
export function attackedRun(id: number): PreflightPayload {
  const payload = JSON.parse(readFileSync(EXAMPLE, 'utf8')) as PreflightPayload;
  payload.execution.id = id;
  return payload;
}

/** Steadybit's custom webhook for that run as execution `id`: `experiment.execution.<name>` at `atMs`. */
export function attackedEvent(name: string, id: number, atMs: number): WebhookPayload {
  return {
    ...(attackedRun(id) as unknown as WebhookPayload),
    event: `experiment.execution.${name}`,
    time: new Date(atMs).toISOString(),
  };
}
