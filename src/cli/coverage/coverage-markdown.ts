import type { CoverageCount, CoverageReport, KindCounts } from './coverage-report';
import { changedVerdict, coverageVerdict, uncoveredItems, uncoveredText } from './uncovered-text';

const KINDS: ReadonlyArray<keyof KindCounts> = ['policies', 'rules', 'exceptions', 'branches'];

/** A table cell: pipes and line breaks would break the row. */
const cellText = (s: string) =>
  s
    .replace(/\\/g, '\\\\')
    .replace(/\|/g, '\\|')
    .replace(/[\r\n]+/g, ' ');
const cell = (c: CoverageCount) => (c.total === 0 ? '–' : `${c.covered}/${c.total}`);
const covered = (c: CoverageCount & { percent: number }) => `${cell(c)} (${c.percent.toFixed(1)}%)`;

/** The coverage as the job summary shows it (GITHUB_STEP_SUMMARY): the verdict, a row per file, what is not covered. */
export function coverageMarkdown(report: CoverageReport): string {
  const lines = [
    `### preflight-gate policy test coverage: ${report.percent.toFixed(1)}%`,
    '',
    cellText(coverageVerdict(report)),
    ...[changedVerdict(report)].flatMap((v) => (v === undefined ? [] : ['', cellText(v)])),
    '',
    `| file | ${KINDS.join(' | ')} | covered |`,
    `| --- | ${KINDS.map(() => '---:').join(' | ')} | ---: |`,
    ...report.files.map(
      (f) => `| \`${cellText(f.file)}\` | ${KINDS.map((k) => cell(f.kinds[k])).join(' | ')} | ${covered(f)} |`,
    ),
    `| **all files** | ${KINDS.map((k) => cell(report.kinds[k])).join(' | ')} | **${covered(report)}** |`,
  ];
  const missing = uncoveredItems(report);
  if (missing.length > 0) {
    lines.push('', `<details><summary>Not covered (${missing.length})</summary>`, '');
    for (const { file, entry } of missing)
      lines.push(`- \`${cellText(file)}:${entry.line}\` ${cellText(uncoveredText(entry)).replace(/</g, '&lt;')}`);
    lines.push('', '</details>');
  }
  return `${lines.join('\n')}\n`;
}
