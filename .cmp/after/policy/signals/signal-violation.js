"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.clip = void 0;
exports.unavailable = unavailable;
exports.listCapped = listCapped;
/** The reason for a source that could not answer, and whether the policy lets the run through anyway. */
function unavailable(what, error, onUnavailable, signal) {
    if (onUnavailable === 'allow')
        return {
            reason: `${what} could not be read (${error}); allowed anyway because the policy says onUnavailable: allow`,
            status: 'advisory',
            signal,
        };
    return { reason: `cannot decide: ${what} could not be read (${error})`, status: 'undecidable', signal };
}
/** Text cut to `max` characters, marked with an ellipsis. */
const clip = (text, max) => (text.length <= max ? text : `${text.slice(0, max - 1)}…`);
exports.clip = clip;
/** `a; b; c (+4 more)`, at most `max` characters. */
function listCapped(items, max) {
    let out = '';
    let shown = 0;
    for (const item of items) {
        const next = `${shown === 0 ? '' : '; '}${item}`;
        const more = items.length - shown - 1 > 0 ? ` (+${items.length - shown - 1} more)`.length : 0;
        if (out.length + next.length + more > max)
            break;
        out += next;
        shown++;
    }
    if (shown === 0 && items.length > 0)
        return `${(0, exports.clip)(items[0], max - 20)}${items.length > 1 ? ` (+${items.length - 1} more)` : ''}`;
    return shown < items.length ? `${out} (+${items.length - shown} more)` : out;
}
//# sourceMappingURL=signal-violation.js.map