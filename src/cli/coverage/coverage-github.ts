import { githubAnnotation } from '../format-problems';
import type { CoverageReport } from './coverage-report';
import { coverageText } from './coverage-text';
import { coverageVerdict, uncoveredItems, uncoveredText } from './uncovered-text';

const TITLE = 'preflight-gate coverage';

/**
 * GitHub Actions annotations for the coverage (test --format github's workflow commands): a warning
 * at the line of every item no case exercised, an error when the coverage is below --min-coverage;
 * then the text report, so the job log reads as usual.
 */
export function coverageGithub(report: CoverageReport): string {
  const lines = uncoveredItems(report).map(({ file, entry }) =>
    githubAnnotation(
      { file, line: entry.line, col: entry.col, path: '', message: uncoveredText(entry), severity: 'warning' },
      TITLE,
    ),
  );
  if (report.belowMinimum) lines.push(`::error title=${TITLE}::${coverageVerdict(report).replace(/%/g, '%25')}`);
  return `${lines.map((l) => `${l}\n`).join('')}${coverageText(report)}`;
}
