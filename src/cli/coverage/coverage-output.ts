import { appendFileSync, writeFileSync } from 'node:fs';
import { BadInputError } from '../../common/bad-input-error';
import { coverageGithub } from './coverage-github';
import { coverageMarkdown } from './coverage-markdown';
import type { CoverageReport } from './coverage-report';
import { coverageText } from './coverage-text';

export const COVERAGE_FORMATS = ['text', 'json', 'github'] as const;
export type CoverageFormat = (typeof COVERAGE_FORMATS)[number];

/** The coverage report in one format (json: the documented shape, docs/test-coverage.md). */
export function formatCoverage(report: CoverageReport, format: CoverageFormat): string {
  if (format === 'json') return `${JSON.stringify(report, null, 2)}\n`;
  return format === 'github' ? coverageGithub(report) : coverageText(report);
}

/** Writes the coverage report to `--coverage-file`; a file that cannot be written is a usage error (exit 2). */
export function writeCoverageFile(file: string, text: string): void {
  try {
    writeFileSync(file, text);
  } catch (err) {
    throw new BadInputError(`cannot write --coverage-file ${file}: ${(err as Error).message}`);
  }
}

/**
 * With the github format, the coverage also goes to the job summary when GITHUB_STEP_SUMMARY names
 * its file (as GitHub Actions sets it). A summary that cannot be written is said on stderr; the
 * report itself is in the log either way.
 */
export function writeJobSummary(report: CoverageReport, env: NodeJS.ProcessEnv, writeErr: (s: string) => void): void {
  const file = env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  try {
    appendFileSync(file, coverageMarkdown(report));
  } catch (err) {
    writeErr(
      `preflight-gate: cannot write the coverage to the job summary (GITHUB_STEP_SUMMARY): ${(err as Error).message}\n`,
    );
  }
}
