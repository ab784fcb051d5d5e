"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.silencedSince = silencedSince;
/**
 * Whether the silences of a silenced alert hide it from a run that started at `since` (its
 * execution's `created` time, as Steadybit sends it): only a silence that began, and was last
 * changed, at or before then hides it. A silence made or extended after the run started (by one of
 * its steps, or by anyone) does not, nor does one whose times were not read (the silences could not
 * be read, or it is not listed), nor any when the run's start is not known: fail closed (docs/guard.md,
 * "Silences made during a run").
 */
function silencedSince(alert, answer, since) {
    const ids = alert.status?.silencedBy ?? [];
    const sinceMs = since === undefined ? Number.NaN : Date.parse(since);
    if (Number.isNaN(sinceMs))
        return {
            hidden: false,
            why: 'silenced, but the run sends no execution.created (a time) to tell which silences began after it started',
        };
    if (answer.silencesError !== undefined)
        return { hidden: false, why: `silenced, but the silences could not be read: ${answer.silencesError}` };
    for (const id of ids) {
        const silence = answer.silences !== undefined && Object.hasOwn(answer.silences, id) ? answer.silences[id] : undefined;
        if (silence === undefined)
            continue;
        const began = Math.max(Date.parse(silence.startsAt), Date.parse(silence.updatedAt ?? silence.startsAt));
        if (began <= sinceMs)
            return { hidden: true };
    }
    return {
        hidden: false,
        why: `silenced by ${ids.slice(0, 3).join(', ')}${ids.length > 3 ? ` and ${ids.length - 3} more` : ''}, made or changed after the run started (${since}) or not listed, which hides nothing from it`,
    };
}
//# sourceMappingURL=silenced-since.js.map