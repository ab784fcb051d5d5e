"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.humanDuration = humanDuration;
/** The units of a duration told to a person, largest first: days in words, the rest as policies write them. */
const UNITS = [
    ['day', 86_400_000],
    ['h', 3_600_000],
    ['m', 60_000],
    ['s', 1_000],
    ['ms', 1],
];
const largestUnit = (ms) => {
    const i = UNITS.findIndex(([, factor]) => ms >= factor);
    return i < 0 ? UNITS.length - 1 : i;
};
const part = (n, unit) => (unit === 'day' ? `${n} day${n === 1 ? '' : 's'}` : `${n}${unit}`);
/**
 * A duration for a message to a person: its two largest units, rounded to the nearest of the
 * second (`21h29m3s843ms` -> `21h29m`, `1w` -> `7 days`, `1d4h` -> `1 day 4h`, `90s` -> `1m30s`), and
 * to seconds below a minute (`52s708ms` -> `53s`; milliseconds only below a second);
 * `down` rounds down, for a limit not to be passed ("ask for at most"). Not a duration to parse
 * back: formatDuration (duration.ts) writes the exact one.
 */
function humanDuration(ms, rounding = 'nearest') {
    const round = rounding === 'down' ? Math.floor : Math.round;
    const first = largestUnit(Math.max(0, ms));
    // Milliseconds are told only below a second: `52s708ms` -> `53s`.
    const quantum = Math.max(UNITS[Math.min(first + 1, UNITS.length - 1)][1], ms >= 1_000 ? 1_000 : 1);
    const rounded = round(Math.max(0, ms) / quantum) * quantum;
    const i = largestUnit(rounded);
    const [unit, factor] = UNITS[i];
    const whole = Math.floor(rounded / factor);
    const out = [part(whole, unit)];
    if (i + 1 < UNITS.length && UNITS[i + 1][1] >= quantum) {
        const [next, nextFactor] = UNITS[i + 1];
        const rest = Math.round((rounded - whole * factor) / nextFactor);
        if (rest > 0)
            out.push(part(rest, next));
    }
    return out.join(unit === 'day' ? ' ' : '');
}
//# sourceMappingURL=human-duration.js.map