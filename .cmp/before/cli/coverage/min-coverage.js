"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseMinCoverage = parseMinCoverage;
const bad_input_error_1 = require("../../common/bad-input-error");
const PERCENT = /^(\d{1,3}(?:\.\d+)?)%?$/;
/** `--min-coverage <percent>`: a number from 0 to 100 (`80`, `87.5`, `80%`); anything else is a usage error. */
function parseMinCoverage(text) {
    const m = PERCENT.exec(text.trim());
    const value = m ? Number(m[1]) : Number.NaN;
    if (!(value >= 0 && value <= 100))
        throw new bad_input_error_1.BadInputError(`--min-coverage must be a percentage from 0 to 100, e.g. 80 or 87.5 (got ${JSON.stringify(text)})`);
    return value;
}
//# sourceMappingURL=min-coverage.js.map