"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.coverageMarkdown = coverageMarkdown;
const uncovered_text_1 = require("./uncovered-text");
const KINDS = ['policies', 'rules', 'exceptions', 'branches'];
/** A table cell: pipes and line breaks would break the row. */
const cellText = (s) => s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
const cell = (c) => (c.total === 0 ? '–' : `${c.covered}/${c.total}`);
const covered = (c) => `${cell(c)} (${c.percent.toFixed(1)}%)`;
/** The coverage as the job summary shows it (GITHUB_STEP_SUMMARY): the verdict, a row per file, what is not covered. */
function coverageMarkdown(report) {
    const lines = [
        `### preflight-gate policy test coverage: ${report.percent.toFixed(1)}%`,
        '',
        cellText((0, uncovered_text_1.coverageVerdict)(report)),
        ...[(0, uncovered_text_1.changedVerdict)(report)].flatMap((v) => (v === undefined ? [] : ['', cellText(v)])),
        '',
        `| file | ${KINDS.join(' | ')} | covered |`,
        `| --- | ${KINDS.map(() => '---:').join(' | ')} | ---: |`,
        ...report.files.map((f) => `| \`${cellText(f.file)}\` | ${KINDS.map((k) => cell(f.kinds[k])).join(' | ')} | ${covered(f)} |`),
        `| **all files** | ${KINDS.map((k) => cell(report.kinds[k])).join(' | ')} | **${covered(report)}** |`,
    ];
    const missing = (0, uncovered_text_1.uncoveredItems)(report);
    if (missing.length > 0) {
        lines.push('', `<details><summary>Not covered (${missing.length})</summary>`, '');
        for (const { file, entry } of missing)
            lines.push(`- \`${cellText(file)}:${entry.line}\` ${cellText((0, uncovered_text_1.uncoveredText)(entry)).replace(/</g, '&lt;')}`);
        lines.push('', '</details>');
    }
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=coverage-markdown.js.map