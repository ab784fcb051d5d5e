"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.coverageGithub = coverageGithub;
const format_problems_1 = require("../format-problems");
const coverage_text_1 = require("./coverage-text");
const uncovered_text_1 = require("./uncovered-text");
const TITLE = 'preflight-gate coverage';
/** An annotation's message: `%` is escaped as workflow commands need. */
const command = (text) => text.replace(/%/g, '%25');
/**
 * GitHub Actions annotations for the coverage (test --format github's workflow commands): a warning
 * at the line of every item no case exercised (an error for a rule or window the change adds or
 * edits, with --coverage-changed), an error when the coverage is below --min-coverage or a changed
 * item is not covered; then the text report, so the job log reads as usual.
 */
function coverageGithub(report) {
    const lines = (0, uncovered_text_1.uncoveredItems)(report).map(({ file, entry }) => (0, format_problems_1.githubAnnotation)({
        file,
        line: entry.line,
        col: entry.col,
        path: '',
        message: (0, uncovered_text_1.uncoveredText)(entry),
        severity: entry.change === undefined ? 'warning' : 'error',
    }, TITLE));
    if (report.belowMinimum)
        lines.push(`::error title=${TITLE}::${command((0, uncovered_text_1.coverageVerdict)(report))}`);
    if ((0, uncovered_text_1.changesUncovered)(report))
        lines.push(`::error title=${TITLE}::${command((0, uncovered_text_1.changedVerdict)(report) ?? '')}`);
    return `${lines.map((l) => `${l}\n`).join('')}${(0, coverage_text_1.coverageText)(report)}`;
}
//# sourceMappingURL=coverage-github.js.map