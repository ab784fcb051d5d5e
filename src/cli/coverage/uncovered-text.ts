import type { CoverageEntry, CoverageReport } from './coverage-report';

/** What an item is, as reports name it: `rule rules[0].timeWindow of policy change-freeze`. */
export function itemName(e: CoverageEntry): string {
  switch (e.kind) {
    case 'policy':
      return `policy ${e.policy}`;
    case 'rule':
      return `rule ${e.rule} of policy ${e.policy}`;
    case 'exception':
      return `exception ${e.exception} (waives ${e.policy})`;
    case 'branch':
      return `${e.rule} ${e.branch} of policy ${e.policy}`;
  }
}

/** Why an item is not covered, in words a policy author can act on. */
export function uncoveredText(e: CoverageEntry): string {
  switch (e.kind) {
    case 'policy':
      return `${itemName(e)}: no case made it apply (no case was inside its match and exclude scope)`;
    case 'rule':
      return `${itemName(e)}: no case made it judge (its policy never applied)`;
    case 'exception':
      return e.considered > 0
        ? `${itemName(e)}: never waived a case (considered in ${e.considered}, it did not match or no longer waives)`
        : `${itemName(e)}: never waived a case (no case had ${e.policy} find something for it to waive)`;
    case 'branch':
      return `${itemName(e)}: no case ran ${e.label}`;
  }
}

/** Every item not covered, with its file, in report order. */
export const uncoveredItems = (report: CoverageReport): Array<{ file: string; entry: CoverageEntry }> =>
  report.files.flatMap((f) => f.items.filter((e) => !e.covered).map((entry) => ({ file: f.file, entry })));

/** The verdict line: `Coverage: 87.5% (14 of 16 items)`, and the minimum when one was given. */
export function coverageVerdict(report: CoverageReport): string {
  const figure = `${report.percent.toFixed(1)}% (${report.covered} of ${report.total} items: policies, rules, exceptions, time-window branches)`;
  if (report.minimum === undefined) return `Coverage: ${figure}`;
  return report.belowMinimum
    ? `Coverage: ${figure} is below the minimum of ${report.minimum}% (--min-coverage)`
    : `Coverage: ${figure} meets the minimum of ${report.minimum}% (--min-coverage)`;
}
