"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.silentField = void 0;
exports.silentSignalOf = silentSignalOf;
exports.mergeSilences = mergeSilences;
/** The field a silent signal is kept under (its kind, source and query): one per signal of a run. */
const silentField = (s) => JSON.stringify([s.kind, s.source, s.query ?? null]);
exports.silentField = silentField;
/** A kept field and its time back as a silent signal. */
function silentSignalOf(field, since) {
    const [kind, source, query] = JSON.parse(field);
    return query === null ? { kind, source, since } : { kind, source, query, since };
}
/** The silences kept after a tick found `silent`: kept ones keep their time, new ones are added, the rest dropped. */
function mergeSilences(kept, silent) {
    const next = new Map();
    for (const s of silent) {
        const field = (0, exports.silentField)(s);
        next.set(field, kept.get(field) ?? s.since);
    }
    return next;
}
//# sourceMappingURL=silent-signals.js.map