import { formatProblem, type LoadProblem } from '../policy/compile/load-error';

export const PROBLEM_FORMATS = ['text', 'json', 'github'] as const;
export type ProblemFormat = (typeof PROBLEM_FORMATS)[number];

/** GitHub's workflow-command escaping: data and property values differ (`:` and `,` only in properties). */
const escapeData = (s: string) => s.replace(/%/g, '%25').replace(/\r/g, '%0D').replace(/\n/g, '%0A');
const escapeProperty = (s: string) => escapeData(s).replace(/:/g, '%3A').replace(/,/g, '%2C');

/** One GitHub Actions annotation: shown on the pull request's diff at the file and line. */
export function githubAnnotation(p: LoadProblem, title = 'preflight-gate'): string {
  return githubCommand(p.severity, title, p.path ? `${p.path}: ${p.message}` : p.message, p);
}

/** `::error file=...,line=...,col=...,title=...::message`; without `at`, an annotation of the run, on no file. */
export function githubCommand(
  level: 'error' | 'warning',
  title: string,
  message: string,
  at?: { file: string; line: number; col: number },
): string {
  const where = at ? `file=${escapeProperty(at.file)},line=${at.line},col=${at.col},` : '';
  return `::${level} ${where}title=${escapeProperty(title)}::${escapeData(message)}`;
}

export function countProblems(problems: readonly LoadProblem[]): { errors: number; warnings: number } {
  const errors = problems.filter((p) => p.severity === 'error').length;
  return { errors, warnings: problems.length - errors };
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/** Whether the problems fail the check: any error, or with `strict` (--strict) any warning too. */
export function problemsFail(problems: readonly LoadProblem[], strict = false): boolean {
  const { errors, warnings } = countProblems(problems);
  return errors > 0 || (strict && warnings > 0);
}

/**
 * Problems as lines of `file:line:col message` (text), annotations (github), or one JSON document.
 * With `strict` (--strict) a warning fails the set as an error does, and the verdict says so.
 */
export function formatProblems(
  problems: readonly LoadProblem[],
  format: ProblemFormat,
  summary: Record<string, unknown> & { headline: string },
  strict = false,
): string {
  const { errors, warnings } = countProblems(problems);
  const ok = !problemsFail(problems, strict);
  if (format === 'json') {
    const { headline, ...rest } = summary;
    const strictField = strict ? { strict } : {};
    return `${JSON.stringify({ ok, errors, warnings, ...strictField, summary: headline, ...rest, problems }, null, 2)}\n`;
  }
  const lines = problems.map((p) => (format === 'github' ? githubAnnotation(p) : formatProblem(p)));
  const verdict = ok ? 'valid' : 'INVALID';
  const because = errors === 0 && !ok ? '; --strict: warnings fail' : '';
  lines.push(`${summary.headline}: ${verdict} (${plural(errors, 'error')}, ${plural(warnings, 'warning')}${because})`);
  return `${lines.join('\n')}\n`;
}
