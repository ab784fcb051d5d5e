"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.filledPerRun = filledPerRun;
const placeholder_text_1 = require("./placeholder-text");
/**
 * What `fill` makes of each run's values, in the runs' order, each distinct text once (the first
 * run to fill it in). A run that lacks a value the text needs is the "cannot decide" violation
 * saying so instead; `needs` says what needs it ("the query needs").
 */
function filledPerRun(runs, fill, needs) {
    const out = [];
    const seen = new Set();
    for (const run of runs) {
        const filled = fill(run);
        if ('missing' in filled)
            out.push({
                reason: `cannot decide: ${needs} {{${filled.missing}}} but ${(0, placeholder_text_1.missingValueText)(filled.missing, run)}`,
                status: 'undecidable',
            });
        else if (!seen.has(filled.text)) {
            seen.add(filled.text);
            out.push({ text: filled.text, run });
        }
    }
    return out;
}
//# sourceMappingURL=filled-per-run.js.map