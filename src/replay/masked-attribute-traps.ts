import { isJsonObject } from '../common/json-object';
import { isRedactedValue } from '../redaction/redaction-marker';

/** Which masked keys a decision read; filled while it runs. */
export interface MaskedReads {
  keys: Set<string>;
}

/** Replaces `field` of `o` by a getter that notes `key` in `reads` and returns the same value. */
function trap(o: Record<string, unknown>, field: string, key: string, reads: MaskedReads): void {
  const value = o[field];
  Object.defineProperty(o, field, {
    enumerable: true,
    get() {
      reads.keys.add(key);
      return value;
    },
  });
}

/** Predicate leaves of a masked key: reading their values notes the key. */
function trapPredicate(p: unknown, keys: ReadonlySet<string>, reads: MaskedReads): void {
  if (Array.isArray(p)) {
    for (const item of p) trapPredicate(item, keys, reads);
    return;
  }
  if (!isJsonObject(p)) return;
  if (typeof p.key === 'string' && keys.has(p.key) && Array.isArray(p.values) && p.values.every(isRedactedValue)) {
    trap(p, 'values', p.key, reads);
    return;
  }
  for (const v of Object.values(p)) if (typeof v === 'object' && v !== null) trapPredicate(v, keys, reads);
}

function trapTargets(steps: unknown, keys: ReadonlySet<string>, reads: MaskedReads): void {
  if (!Array.isArray(steps)) return;
  for (const step of steps) {
    if (!isJsonObject(step)) continue;
    if (isJsonObject(step.radius)) trapPredicate(step.radius.predicate, keys, reads);
    if (Array.isArray(step.targetExecutions)) {
      for (const target of step.targetExecutions) {
        if (!isJsonObject(target) || !Array.isArray(target.attributes)) continue;
        for (const attribute of target.attributes) {
          if (
            !isJsonObject(attribute) ||
            typeof attribute.key !== 'string' ||
            !keys.has(attribute.key) ||
            !isRedactedValue(attribute.value)
          )
            continue;
          trap(attribute, 'value', attribute.key, reads);
        }
      }
    }
    trapTargets(step.validations, keys, reads);
  }
}

/**
 * Turns every masked attribute value of a payload (in targets' attributes and radius predicates;
 * `[redacted]`, or `[masked]` in records written by 0.1.0) into a getter that notes the read
 * (the payload is already validated: it is read only by the decision from here on). A decision that read none of them did
 * not depend on the values the archive lacks, so its replay is exact; one that read any cannot be
 * replayed, whatever rule kind (present or future) did the reading.
 */
export function trapMaskedAttributes(payload: unknown, masked: readonly string[] | undefined): MaskedReads {
  const reads: MaskedReads = { keys: new Set() };
  if (!masked || masked.length === 0 || !isJsonObject(payload) || !isJsonObject(payload.execution)) return reads;
  trapTargets(payload.execution.steps, new Set(masked), reads);
  return reads;
}
