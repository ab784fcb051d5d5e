"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.signalFactsLines = signalFactsLines;
const signal_violation_1 = require("./signal-violation");
const at = (readAt) => (readAt ? `read ${readAt}` : 'read at an unrecorded time');
function queryResult(answer) {
    if ('error' in answer)
        return `error: ${answer.error}`;
    if (answer.resultType === 'vector')
        return answer.result.length === 0
            ? 'no samples'
            : `${answer.result.length} sample${answer.result.length === 1 ? '' : 's'}: ${(0, signal_violation_1.clip)(answer.result.map((s) => s.value[1]).join(', '), 120)}`;
    if (answer.resultType === 'scalar')
        return `scalar ${answer.result[1]}`;
    return `${answer.resultType} result`;
}
/** `HTTP 200`, with the number of events for a calendar's answer (a json source with format: ical). */
function jsonResult(answer) {
    if ('error' in answer)
        return `error: ${answer.error}`;
    const body = answer.body;
    const events = body !== null && typeof body === 'object' && Array.isArray(body.events) ? body.events.length : undefined;
    return events === undefined || typeof body?.now !== 'string'
        ? `HTTP ${answer.status}`
        : `HTTP ${answer.status}, ${events} event${events === 1 ? '' : 's'} going on at ${body.now}`;
}
/**
 * What the signal sources answered, one line per query, for `eval --explain`: the source, the
 * query, its result and when it was read (a decision that passed names no finding to show it).
 */
function signalFactsLines(signals) {
    const lines = [];
    for (const [source, answer] of Object.entries(signals?.alertmanager ?? {})) {
        const result = 'error' in answer
            ? `error: ${answer.error}`
            : `${answer.alerts.length} unresolved alert${answer.alerts.length === 1 ? '' : 's'}`;
        lines.push(`alertmanager "${source}" GET /api/v2/alerts -> ${result} (${at(answer.readAt)})`);
    }
    for (const [source, queries] of Object.entries(signals?.prometheus ?? {})) {
        for (const [query, answer] of Object.entries(queries))
            lines.push(`prometheus "${source}" ${query} -> ${queryResult(answer)} (${at(answer.readAt)})`);
    }
    for (const [source, paths] of Object.entries(signals?.json ?? {})) {
        for (const [path, answer] of Object.entries(paths))
            lines.push(`json "${source}" GET ${(0, signal_violation_1.clip)(path, 200)} -> ${jsonResult(answer)} (${at(answer.readAt)})`);
    }
    return lines;
}
//# sourceMappingURL=signal-facts-text.js.map