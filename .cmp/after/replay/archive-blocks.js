"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.blockLines = blockLines;
exports.lineEnds = lineEnds;
exports.lineBlocks = lineBlocks;
/** What ends a line, as readline reads it with `crlfDelay: Infinity`: \r\n, \n, or a \r alone. */
const LINE_END = /\r\n|\n|\r/;
const LF = 0x0a;
const CR = 0x0d;
/** The lines of a block, split as readline splits them (a last line without its end is a line too). */
function blockLines(bytes) {
    const lines = bytes.toString('utf8').split(LINE_END);
    // Text ending with its line end leaves an empty piece after it, which is no line.
    if (lines.at(-1) === '')
        lines.pop();
    return lines;
}
/** The line ends in `bytes` (\r\n counted once): found with indexOf, which is memchr, not a loop over every byte. */
function lineEnds(bytes) {
    let n = 0;
    for (let at = bytes.indexOf(LF); at !== -1; at = bytes.indexOf(LF, at + 1))
        n++;
    for (let at = bytes.indexOf(CR); at !== -1; at = bytes.indexOf(CR, at + 1))
        if (bytes[at + 1] !== LF)
            n++;
    return n;
}
/** Where the whole lines of `bytes` end: after its last \n, or its last \r unless that is the last byte (half a \r\n, maybe). */
function wholeLinesEnd(bytes) {
    const lf = bytes.lastIndexOf(LF);
    // (lastIndexOf reads a negative offset from the end: a buffer of one byte has no \r before its last.)
    const cr = bytes.length < 2 ? -1 : bytes.lastIndexOf(CR, bytes.length - 2);
    return Math.max(lf, cr) + 1;
}
/**
 * A byte stream cut into blocks of whole lines, one per chunk read (the rest of a line waits for
 * the next chunk): no string per line is made here, and memory holds one chunk and the line it
 * cuts. `lines()` says how many whole lines were handed out (what a damaged file's message names).
 */
function lineBlocks(file, input) {
    let handedOut = 0;
    async function* blocks() {
        let rest = Buffer.alloc(0);
        for await (const chunk of input) {
            const bytes = rest.length === 0 ? chunk : Buffer.concat([rest, chunk]);
            const end = wholeLinesEnd(bytes);
            rest = bytes.subarray(end);
            if (end === 0)
                continue;
            const whole = bytes.subarray(0, end);
            const first = handedOut + 1;
            handedOut += lineEnds(whole);
            yield { file, first, skip: 0, bytes: whole };
        }
        if (rest.length > 0) {
            const first = handedOut + 1;
            handedOut += blockLines(rest).length;
            yield { file, first, skip: 0, bytes: rest };
        }
    }
    return { blocks: blocks(), lines: () => handedOut };
}
//# sourceMappingURL=archive-blocks.js.map