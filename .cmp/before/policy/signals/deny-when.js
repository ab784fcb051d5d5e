"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseDenyWhen = parseDenyWhen;
exports.trips = trips;
const COMPARISON = /^\s*(>=|<=|==|!=|>|<)\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?|[-+]?Inf)\s*$/;
/** Parses `"> 0.02"`, `">= 1"`, `"== 0"`, ...; returns the problem as text (a load-time error). */
function parseDenyWhen(text) {
    const m = COMPARISON.exec(text);
    if (!m)
        return `denyWhen must be a comparison with a number, e.g. "> 0.02" or "== 0" (operators > >= < <= == !=), got "${text}"`;
    const threshold = m[2].endsWith('Inf') ? (m[2].startsWith('-') ? -Infinity : Infinity) : Number(m[2]);
    return { op: m[1], threshold, text: `${m[1]} ${m[2]}` };
}
/** Whether the value trips the comparison. NaN never does (it compares false, as in PromQL). */
function trips(when, value) {
    switch (when.op) {
        case '>':
            return value > when.threshold;
        case '>=':
            return value >= when.threshold;
        case '<':
            return value < when.threshold;
        case '<=':
            return value <= when.threshold;
        case '==':
            return value === when.threshold;
        case '!=':
            return value !== when.threshold && !Number.isNaN(value);
    }
}
//# sourceMappingURL=deny-when.js.map