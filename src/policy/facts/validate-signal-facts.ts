import { toFieldErrors, type FieldError, validated } from '../../validation/field-errors';
import { validateSignalFactsDocument as validate } from './generated/signal-facts-schema';
import type { SignalFacts } from './signal-facts';

/** Checks a signal facts document; the errors name the path (`alertmanager.default.alerts[0].labels: is required`). */
export function validateSignalFacts(
  value: unknown,
): { ok: true; facts: SignalFacts } | { ok: false; errors: FieldError[] } {
  if (validate(value)) return { ok: true, facts: value };
  return { ok: false, errors: toFieldErrors(validate.errors, validated(validate, value)) };
}
