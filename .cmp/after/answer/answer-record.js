"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.freezeRecord = freezeRecord;
/** Freezes a record and its timings (and the decided part); the decision and payload are typed read-only. */
function freezeRecord(record) {
    Object.freeze(record.timings);
    if (record.route === '/preflight' && record.decided)
        Object.freeze(record.decided);
    return Object.freeze(record);
}
//# sourceMappingURL=answer-record.js.map