"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.COVERAGE_FORMATS = void 0;
exports.formatCoverage = formatCoverage;
exports.writeCoverageFile = writeCoverageFile;
exports.writeJobSummary = writeJobSummary;
const node_fs_1 = require("node:fs");
const bad_input_error_1 = require("../../common/bad-input-error");
const coverage_github_1 = require("./coverage-github");
const coverage_markdown_1 = require("./coverage-markdown");
const coverage_text_1 = require("./coverage-text");
exports.COVERAGE_FORMATS = ['text', 'json', 'github'];
/** The coverage report in one format (json: the documented shape, docs/test-coverage.md). */
function formatCoverage(report, format) {
    if (format === 'json')
        return `${JSON.stringify(report, null, 2)}\n`;
    return format === 'github' ? (0, coverage_github_1.coverageGithub)(report) : (0, coverage_text_1.coverageText)(report);
}
/** Writes the coverage report to `--coverage-file`; a file that cannot be written is a usage error (exit 2). */
function writeCoverageFile(file, text) {
    try {
        (0, node_fs_1.writeFileSync)(file, text);
    }
    catch (err) {
        throw new bad_input_error_1.BadInputError(`cannot write --coverage-file ${file}: ${err.message}`);
    }
}
/**
 * With the github format, the coverage also goes to the job summary when GITHUB_STEP_SUMMARY names
 * its file (as GitHub Actions sets it). A summary that cannot be written is said on stderr; the
 * report itself is in the log either way.
 */
function writeJobSummary(report, env, writeErr) {
    const file = env.GITHUB_STEP_SUMMARY;
    if (!file)
        return;
    try {
        (0, node_fs_1.appendFileSync)(file, (0, coverage_markdown_1.coverageMarkdown)(report));
    }
    catch (err) {
        writeErr(`preflight-gate: cannot write the coverage to the job summary (GITHUB_STEP_SUMMARY): ${err.message}\n`);
    }
}
//# sourceMappingURL=coverage-output.js.map