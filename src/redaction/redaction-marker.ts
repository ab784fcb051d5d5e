/**
 * What a masked target value is written as, wherever it is masked: audit lines, archive records
 * (payloads, answers, results), guard stops and notifications.
 */
export const REDACTED = '[redacted]';

/**
 * What archive records written by 0.1.0 hold instead of a masked attribute value in their
 * payload. Replay still reads them as masked.
 */
export const LEGACY_MASKED = '[masked]';

/** Whether a value in an archived payload is a masked one (of this version or an older one). */
export const isRedactedValue = (value: unknown): boolean => value === REDACTED || value === LEGACY_MASKED;
