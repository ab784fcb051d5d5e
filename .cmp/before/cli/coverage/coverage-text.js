"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.coverageText = coverageText;
const uncovered_text_1 = require("./uncovered-text");
const KINDS = ['policies', 'rules', 'exceptions', 'branches'];
const cell = (c) => (c.total === 0 ? '-' : `${c.covered}/${c.total}`);
const percent = (c) => `${c.percent.toFixed(1).padStart(5)}%`;
/** Rows of cells as columns padded to their widest cell. */
function table(rows) {
    const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
    return rows.map((r) => r
        .map((c, i) => (i === r.length - 1 ? c : c.padEnd(widths[i])))
        .join('  ')
        .trimEnd());
}
/**
 * The coverage as text: a row per policy file (covered/all per kind, and the file's percentage), the
 * items not covered as `file:line:col what: why`, then the verdict (and, with --coverage-changed,
 * the verdict on what the change adds or edits).
 */
function coverageText(report) {
    const rows = [
        ['file', ...KINDS, 'covered', '%'],
        ...report.files.map((f) => [f.file, ...KINDS.map((k) => cell(f.kinds[k])), cell(f), percent(f)]),
        ['all files', ...KINDS.map((k) => cell(report.kinds[k])), cell(report), percent(report)],
    ];
    const lines = ['Coverage of the policies by the test cases:', ...table(rows).map((l) => `  ${l}`)];
    const missing = (0, uncovered_text_1.uncoveredItems)(report);
    if (missing.length > 0) {
        lines.push('Not covered:');
        for (const { file, entry } of missing)
            lines.push(`  ${file}:${entry.line}:${entry.col} ${(0, uncovered_text_1.uncoveredText)(entry)}`);
    }
    lines.push((0, uncovered_text_1.coverageVerdict)(report));
    const changed = (0, uncovered_text_1.changedVerdict)(report);
    if (changed !== undefined)
        lines.push(changed);
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=coverage-text.js.map