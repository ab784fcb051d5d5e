import { githubAnnotation } from '../format-problems';
import type { CoverageReport } from './coverage-report';
import { coverageText } from './coverage-text';
import { changedVerdict, changesUncovered, coverageVerdict, uncoveredItems, uncoveredText } from './uncovered-text';

const TITLE = 'preflight-gate coverage';

/** An annotation's message: `%` is escaped as workflow commands need. */
const command = (text: string) => text.replace(/%/g, '%25');

/**
 * GitHub Actions annotations for the coverage (test --format github's workflow commands): a warning
 * at the line of every item no case exercised (an error for a rule or window the change adds or
 * edits, with --coverage-changed), an error when the coverage is below --min-coverage or a changed
 * item is not covered; then the text report, so the job log reads as usual.
 */
export function coverageGithub(report: CoverageReport): string {
  const lines = uncoveredItems(report).map(({ file, entry }) =>
    githubAnnotation(
      {
        file,
        line: entry.line,
        col: entry.col,
        path: '',
        message: uncoveredText(entry),
        severity: entry.change === undefined ? 'warning' : 'error',
      },
      TITLE,
    ),
  );
  if (report.belowMinimum) lines.push(`::error title=${TITLE}::${command(coverageVerdict(report))}`);
  if (changesUncovered(report)) lines.push(`::error title=${TITLE}::${command(changedVerdict(report) ?? '')}`);
  return `${lines.map((l) => `${l}\n`).join('')}${coverageText(report)}`;
}
