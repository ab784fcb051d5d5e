"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.nullPrototypeCopy = nullPrototypeCopy;
/**
 * A deep copy of JSON-like data whose objects have no prototype, so no path through it reaches
 * Object.prototype (`__proto__`, `constructor`, `toString`...). Arrays stay arrays: json-logic's
 * array operations need them. A `var` path can still read an array method (`labels.push`), but
 * nothing can call it: `method` and operators named with dots are rejected at load time, and no
 * allowed operator calls a value it reads.
 */
function nullPrototypeCopy(value) {
    if (value === null || value === undefined)
        return null;
    if (Array.isArray(value))
        return value.map(nullPrototypeCopy);
    if (typeof value === 'object') {
        const out = Object.create(null);
        for (const [k, v] of Object.entries(value))
            if (v !== undefined)
                out[k] = nullPrototypeCopy(v);
        return out;
    }
    if (typeof value === 'boolean' || typeof value === 'number' || typeof value === 'string')
        return value;
    return null;
}
//# sourceMappingURL=null-prototype.js.map