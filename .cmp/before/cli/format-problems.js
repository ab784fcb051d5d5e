"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PROBLEM_FORMATS = void 0;
exports.githubAnnotation = githubAnnotation;
exports.githubCommand = githubCommand;
exports.countProblems = countProblems;
exports.problemsFail = problemsFail;
exports.formatProblems = formatProblems;
const load_error_1 = require("../policy/compile/load-error");
exports.PROBLEM_FORMATS = ['text', 'json', 'github'];
/** GitHub's workflow-command escaping: data and property values differ (`:` and `,` only in properties). */
const escapeData = (s) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');
/** One GitHub Actions annotation: shown on the pull request's diff at the file and line. */
function githubAnnotation(p, title = 'preflight-gate') {
    return githubCommand(p.severity, title, p.path ? `${p.path}: ${p.message}` : p.message, p);
}
/** `::error file=...,line=...,col=...,title=...::message`; without `at`, an annotation of the run, on no file. */
function githubCommand(level, title, message, at) {
    const where = at ? `file=${escapeProperty(at.file)},line=${at.line},col=${at.col},` : '';
    return `::${level} ${where}title=${escapeProperty(title)}::${escapeData(message)}`;
}
function countProblems(problems) {
    const errors = problems.filter((p) => p.severity === 'error').length;
    return { errors, warnings: problems.length - errors };
}
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;
/** Whether the problems fail the check: any error, or with `strict` (--strict) any warning too. */
function problemsFail(problems, strict = false) {
    const { errors, warnings } = countProblems(problems);
    return errors > 0 || (strict && warnings > 0);
}
/**
 * Problems as lines of `file:line:col message` (text), annotations (github), or one JSON document.
 * With `strict` (--strict) a warning fails the set as an error does, and the verdict says so.
 */
function formatProblems(problems, format, summary, strict = false) {
    const { errors, warnings } = countProblems(problems);
    const ok = !problemsFail(problems, strict);
    if (format === 'json') {
        const { headline, ...rest } = summary;
        const strictField = strict ? { strict } : {};
        return `${JSON.stringify({ ok, errors, warnings, ...strictField, summary: headline, ...rest, problems }, null, 2)}\n`;
    }
    const lines = problems.map((p) => (format === 'github' ? githubAnnotation(p) : (0, load_error_1.formatProblem)(p)));
    const verdict = ok ? 'valid' : 'INVALID';
    const because = errors === 0 && !ok ? '; --strict: warnings fail' : '';
    lines.push(`${summary.headline}: ${verdict} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}${because})`);
    return `${lines.join('\n')}\n`;
}
//# sourceMappingURL=format-problems.js.map