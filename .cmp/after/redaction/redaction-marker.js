"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isRedactedValue = exports.LEGACY_MASKED = exports.REDACTED = void 0;
/**
 * What a masked target value is written as, wherever it is masked: audit lines, archive records
 * (payloads, answers, results), guard stops and notifications.
 */
exports.REDACTED = '[redacted]';
/**
 * What archive records written by 0.1.0 hold instead of a masked attribute value in their
 * payload. Replay still reads them as masked.
 */
exports.LEGACY_MASKED = '[masked]';
/** Whether a value in an archived payload is a masked one (of this version or an older one). */
const isRedactedValue = (value) => value === exports.REDACTED || value === exports.LEGACY_MASKED;
exports.isRedactedValue = isRedactedValue;
//# sourceMappingURL=redaction-marker.js.map