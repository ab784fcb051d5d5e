"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.MAX_RANGE_VALUES = exports.POSIX_CLASSES = void 0;
exports.rangeValues = rangeValues;
const ascii = (...pairs) => pairs.map((pair) => [pair.codePointAt(0), pair.codePointAt(pair.length - 1)]);
/** The POSIX classes, as in the C locale (ASCII only): `[[:alpha:]]` is `[a-zA-Z]`. */
exports.POSIX_CLASSES = new Map([
    ['alnum', ascii('az', 'AZ', '09')],
    ['alpha', ascii('az', 'AZ')],
    ['ascii', ascii('\u0000\u007f')],
    ['blank', ascii(' ', '\t')],
    ['cntrl', ascii('\u0000\u001f', '\u007f')],
    ['digit', ascii('09')],
    ['graph', ascii('!~')],
    ['lower', ascii('az')],
    ['print', ascii(' ~')],
    ['punct', ascii('!/', ':@', '[`', '{~')],
    ['space', ascii('\t\r', ' ')],
    ['upper', ascii('AZ')],
    ['word', ascii('az', 'AZ', '09', '_')],
    ['xdigit', ascii('09', 'af', 'AF')],
]);
/** More values than this in one range (`{1..100000}`) is refused: it is compiled as its values. */
exports.MAX_RANGE_VALUES = 1000;
const NUMBER_RANGE = /^(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?$/;
const LETTER_RANGE = /^([a-zA-Z])\.\.([a-zA-Z])$/;
/**
 * The values of a brace range body (`1..9`, `01..10`, `9..1..2`, `a..f`) as bash expands them:
 * either direction, both ends included, a step's sign ignored (0 is 1), zero-padded to the wider
 * end when either end has a leading zero (`{01..10}`: 01 ... 10); letters by code point (`{Z..a}`
 * holds `[`, `\`, ...). Undefined when the body is no range; a count when there are too many.
 */
function rangeValues(body) {
    const letters = LETTER_RANGE.exec(body);
    if (letters) {
        const [from, to] = [letters[1].codePointAt(0), letters[2].codePointAt(0)];
        return steps(BigInt(from), BigInt(to), 1n, (n) => String.fromCodePoint(Number(n)));
    }
    const numbers = NUMBER_RANGE.exec(body);
    if (!numbers)
        return undefined;
    const [, from, to, step] = numbers;
    const padded = /^-?0\d/.test(from) || /^-?0\d/.test(to);
    const width = padded ? Math.max(from.length, to.length) : 0;
    const text = (n) => n < 0n ? `-${(-n).toString().padStart(width - 1, '0')}` : n.toString().padStart(width, '0');
    const by = step === undefined || BigInt(step) === 0n ? 1n : BigInt(step) < 0n ? -BigInt(step) : BigInt(step);
    return steps(BigInt(from), BigInt(to), by, text);
}
function steps(from, to, by, text) {
    const span = from <= to ? to - from : from - to;
    const count = span / by + 1n;
    if (count > BigInt(exports.MAX_RANGE_VALUES))
        return { tooMany: count };
    const out = [];
    for (let i = 0n; i < count; i++)
        out.push(text(from <= to ? from + i * by : from - i * by));
    return out;
}
//# sourceMappingURL=glob-tree.js.map