"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.sampleValue = sampleValue;
/**
 * A Prometheus sample value as the HTTP API writes it (a JSON string): a decimal number, `+Inf`,
 * `-Inf` or `NaN`. Anything else (`"16,2"`, `"abc"`) is not a value: a facts file holding it is
 * refused, a live answer holding it is an error answer (docs/signals.md, "What a result means").
 */
const SAMPLE_VALUE_PATTERN = '^(?:[-+]?(?:[0-9]+(?:\\.[0-9]*)?|\\.[0-9]+)(?:[eE][-+]?[0-9]+)?|[-+]?Inf|NaN)$';
const SAMPLE_VALUE = new RegExp(SAMPLE_VALUE_PATTERN);
/** The number a sample value means (`+Inf` is Infinity, `NaN` is NaN), or undefined for text that is not one. */
function sampleValue(text) {
    if (typeof text !== 'string' || !SAMPLE_VALUE.test(text))
        return undefined;
    if (text.endsWith('Inf'))
        return text.startsWith('-') ? -Infinity : Infinity;
    return Number(text);
}
//# sourceMappingURL=sample-value.js.map