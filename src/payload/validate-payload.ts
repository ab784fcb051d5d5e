import { toFieldErrors, type FieldError, validated } from '../validation/field-errors';
import { validateWebhookPayload } from './generated/webhook-payload-schema';
import { PREFLIGHT_EVENT, type PreflightPayload, type WebhookPayload } from './types';
import { isJsonObject } from '../common/json-object';

export type PayloadResult<T> = { ok: true; payload: T } | { ok: false; errors: FieldError[] };

/**
 * How deep `validations` may nest inside a step. Steadybit's schema nests them one level (a
 * service validation's actions); deeper nesting is still read as actions, up to this bound, so
 * every walk over a run's steps (the engine's, the audit line's) has a bounded depth.
 */
export const MAX_VALIDATION_NESTING = 32;

/**
 * The step whose validations nest deeper than MAX_VALIDATION_NESTING, level by level without
 * recursion: a 1 MB body can nest tens of thousands of levels, and a walk that recursed would
 * end in a stack overflow (an internal error) instead of this message.
 */
function overNested(body: unknown): FieldError | undefined {
  const steps = isJsonObject(body) && isJsonObject(body.execution) ? body.execution.steps : undefined;
  if (!Array.isArray(steps)) return undefined;
  for (let i = 0; i < steps.length; i++) {
    let level: unknown[] = [steps[i]];
    for (let depth = 0; level.length > 0; depth++) {
      if (depth > MAX_VALIDATION_NESTING) {
        return {
          path: `execution.steps[${i}]`,
          message: `nests validations inside validations more than ${MAX_VALIDATION_NESTING} levels deep (Steadybit nests them one level)`,
        };
      }
      const next: unknown[] = [];
      for (const step of level) {
        if (isJsonObject(step) && Array.isArray(step.validations)) for (const v of step.validations) next.push(v);
      }
      level = next;
    }
  }
  return undefined;
}

/** Validates any webhook payload (preflight, execution progress, kill switch). */
export function validatePayload(body: unknown): PayloadResult<WebhookPayload> {
  const nesting = overNested(body);
  if (nesting) return { ok: false, errors: [nesting] };
  if (validateWebhookPayload(body)) return { ok: true, payload: body };
  return { ok: false, errors: toFieldErrors(validateWebhookPayload.errors, validated(validateWebhookPayload, body)) };
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
