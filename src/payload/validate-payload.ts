import { ajv, toFieldErrors, type FieldError } from '../validation/ajv';
import { webhookPayloadSchema } from './webhook-payload-schema';
import { PREFLIGHT_EVENT, type PreflightPayload, type WebhookPayload } from './types';

const validateWebhookPayload = ajv.compile<WebhookPayload>(webhookPayloadSchema);

export type PayloadResult<T> = { ok: true; payload: T } | { ok: false; errors: FieldError[] };

/** Validates any webhook payload (preflight, execution progress, kill switch). */
export function validatePayload(body: unknown): PayloadResult<WebhookPayload> {
  if (validateWebhookPayload(body)) return { ok: true, payload: body };
  return { ok: false, errors: toFieldErrors(validateWebhookPayload.errors) };
}

/** A payload a decision can be made on: valid, the preflight event, and an execution. */
export function validatePreflightPayload(body: unknown): PayloadResult<PreflightPayload> {
  const result = validatePayload(body);
  if (!result.ok) return result;
  const { payload } = result;
  if (payload.event !== PREFLIGHT_EVENT) {
    return { ok: false, errors: [{ path: 'event', message: `must be "${PREFLIGHT_EVENT}", got "${payload.event}"` }] };
  }
  if (payload.execution === undefined) {
    return { ok: false, errors: [{ path: 'execution', message: 'is required for a preflight decision' }] };
  }
  return { ok: true, payload: payload as PreflightPayload };
}

export function describeFieldErrors(errors: FieldError[], max = 5): string {
  const shown = errors.slice(0, max).map((e) => `${e.path} ${e.message}`);
  const more = errors.length > max ? ` (and ${errors.length - max} more)` : '';
  return shown.join('; ') + more;
}
