"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DURATION_WITH_UNITS_PATTERN = void 0;
exports.parseDuration = parseDuration;
exports.formatDuration = formatDuration;
/**
 * Durations as policies and Steadybit write them: `500ms`, `30s`, `5m`, `1h`, `1h30m`, `2d`, `1w`.
 * The one duration grammar of the project: step parameters, cool-downs and quota windows.
 * Units appear at most once, largest first; each amount may have decimals (`1.5h`).
 * A plain number, or a string holding only digits, is a number of MILLISECONDS (`300000` = 5m).
 */
const UNITS = [
    ['w', 604_800_000],
    ['d', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
];
const AMOUNT = '(\\d+(?:\\.\\d+)?)';
const DURATION = new RegExp(`^(?:${AMOUNT}w)?(?:${AMOUNT}d)?(?:${AMOUNT}h)?(?:${AMOUNT}m(?!s))?(?:${AMOUNT}s)?(?:${AMOUNT}ms)?$`);
const MILLIS = /^\d+(?:\.\d+)?$/;
/** JSON Schema pattern of a duration written with units (no bare number), for policy fields. */
exports.DURATION_WITH_UNITS_PATTERN = '^([0-9]+(\\.[0-9]+)?(w|d|h|ms|m|s))+$';
/** Milliseconds, or undefined when the value is not a duration (negative, empty, unknown unit, not a string or number). */
function parseDuration(value) {
    if (typeof value === 'number')
        return Number.isFinite(value) && value >= 0 ? value : undefined;
    if (typeof value !== 'string')
        return undefined;
    const text = value.trim();
    if (text === '')
        return undefined;
    if (MILLIS.test(text))
        return Number(text);
    const m = DURATION.exec(text);
    if (!m)
        return undefined;
    return UNITS.reduce((sum, [, factor], i) => sum + (m[i + 1] === undefined ? 0 : Number(m[i + 1]) * factor), 0);
}
/** `90000` -> `1m30s`; `0` -> `0ms`. For messages. */
function formatDuration(ms) {
    let rest = ms;
    let out = '';
    for (const [unit, factor] of UNITS) {
        const n = unit === 'ms' ? rest : Math.floor(rest / factor);
        if (n > 0)
            out += `${Number(n.toFixed(3))}${unit}`;
        rest -= n * factor;
    }
    return out === '' ? '0ms' : out;
}
//# sourceMappingURL=duration.js.map