import type { CoverageEntry, CoverageReport } from './coverage-report';

/**
 * What an item is, as reports name it: `rule rules[0].timeWindow of policy change-freeze`, and
 * `(added)` or `(edited)` after a rule or window the change made (--coverage-changed).
 */
export function itemName(e: CoverageEntry): string {
  return e.change === undefined ? writtenName(e) : `${writtenName(e)} (${e.change})`;
}

function writtenName(e: CoverageEntry): string {
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

const cases = (n: number) => `${n} case${n === 1 ? '' : 's'}`;

/** Why an item is not covered, in words a policy author can act on. */
export function uncoveredText(e: CoverageEntry): string {
  switch (e.kind) {
    case 'policy':
      return `${itemName(e)}: no case made it apply (no case was inside its match and exclude scope)`;
    case 'rule':
      if (e.passed + e.denied === 0) return `${itemName(e)}: no case made it judge (its policy never applied)`;
      if (e.passed === 0 && e.denied === e.undecided)
        return `${itemName(e)}: never seen to pass or deny (it could not decide in ${cases(e.undecided)})`;
      if (e.passed === 0)
        return `${itemName(e)}: never seen to pass (it denied in ${cases(e.denied)}, no case got past it)`;
      return `${itemName(e)}: never seen to deny (it passed in ${cases(e.passed)}${
        e.undecided > 0 ? ` and could not decide in ${cases(e.undecided)}` : ''
      }, no case made it find something)`;
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

/** The rules and windows the change adds or edits that are not covered (--coverage-changed): each fails `test`. */
export const uncoveredChanges = (report: CoverageReport): Array<{ file: string; entry: CoverageEntry }> =>
  uncoveredItems(report).filter(({ entry }) => entry.change !== undefined);

/** Whether --coverage-changed was given and something the change adds or edits is not covered. */
export const changesUncovered = (report: CoverageReport): boolean =>
  report.changed !== undefined && report.changed.covered < report.changed.total;

/**
 * The verdict on what changed since the base, when --coverage-changed was given: `Changed since
 * base/policies: 1 of 3 added or edited items (rules, time-window branches) not covered
 * (--coverage-changed)`.
 */
export function changedVerdict(report: CoverageReport): string | undefined {
  const { changed } = report;
  if (changed === undefined) return undefined;
  const since = `Changed since ${changed.base}:`;
  if (changed.total === 0) return `${since} no rule or time-window branch added or edited (--coverage-changed)`;
  const what = 'added or edited items (rules, time-window branches)';
  return changesUncovered(report)
    ? `${since} ${changed.total - changed.covered} of ${changed.total} ${what} not covered (--coverage-changed)`
    : `${since} all ${changed.total} ${what} covered (--coverage-changed)`;
}

/** The verdict line: `Coverage: 87.5% (14 of 16 items)`, and the minimum when one was given. */
export function coverageVerdict(report: CoverageReport): string {
  const figure = `${report.percent.toFixed(1)}% (${report.covered} of ${report.total} items: policies, rules, exceptions, time-window branches)`;
  if (report.minimum === undefined) return `Coverage: ${figure}`;
  return report.belowMinimum
    ? `Coverage: ${figure} is below the minimum of ${report.minimum}% (--min-coverage)`
    : `Coverage: ${figure} meets the minimum of ${report.minimum}% (--min-coverage)`;
}
