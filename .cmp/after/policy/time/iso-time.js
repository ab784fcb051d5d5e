"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseIsoTime = parseIsoTime;
/** An ISO 8601 time with a date and a time of day (`2026-03-02T10:00:00Z`), as `--now` and the playground take it; else undefined. */
function parseIsoTime(value) {
    const date = new Date(value);
    return /^\d{4}-\d{2}-\d{2}T/.test(value) && !Number.isNaN(date.getTime()) ? date : undefined;
}
//# sourceMappingURL=iso-time.js.map