import { ruleKey, type CoverageKind, type PlannedItem } from './coverage-plan';
import type { CoverageTally } from './coverage-recorder';
import type { Change } from './rule-changes';

/** Covered and all, of one kind or in all. */
export interface CoverageCount {
  covered: number;
  total: number;
}

/** The counts per kind: the columns of the text table and the `kinds` of the JSON report. */
export type KindCounts = Record<'policies' | 'rules' | 'exceptions' | 'branches', CoverageCount>;

interface Located {
  line: number;
  col: number;
  /** A rule: it passed in one case and denied in another; any other item: it was exercised. */
  covered: boolean;
  /** With `--coverage-changed`: a rule or window the change adds or edits. */
  change?: Change;
}

/**
 * One item of the report, as the JSON format writes it (docs/test-coverage.md: a stable shape; new
 * fields may be added, none renamed or removed within `version` 1).
 */
export type CoverageEntry = Located &
  (
    | { kind: 'policy'; policy: string /** Decisions in which it applied. */; hits: number }
    | {
        kind: 'rule';
        policy: string;
        rule: string;
        passed: number;
        /** Found something or could not decide; `undecided` of them only could not decide. */
        denied: number;
        undecided: number;
      }
    | { kind: 'exception'; exception: string; policy: string; waived: number; considered: number }
    | { kind: 'branch'; policy: string; rule: string; branch: string; label: string; hits: number }
  );

export interface FileCoverage extends CoverageCount {
  file: string;
  percent: number;
  kinds: KindCounts;
  /** In the order they are written in the file. */
  items: CoverageEntry[];
}

export interface CoverageReport extends CoverageCount {
  /** The shape's version: 1. */
  version: 1;
  /** covered / total * 100 over policies, rules, exceptions and branches, rounded down to one decimal. */
  percent: number;
  kinds: KindCounts;
  /** `--min-coverage`, when given, and whether the coverage is below it. */
  minimum?: number;
  belowMinimum?: boolean;
  /**
   * `--coverage-changed`, when given: the base directory, and how many of the rules and time-window
   * branches the change adds or edits are covered (every one must be).
   */
  changed?: CoverageCount & { base: string };
  files: FileCoverage[];
}

const KIND_COLUMN: Record<CoverageKind, keyof KindCounts> = {
  policy: 'policies',
  rule: 'rules',
  exception: 'exceptions',
  branch: 'branches',
};

/** Rounded down, so 99.96% never reads as 100.0% (the threshold compares the exact fraction). */
export const percentOf = ({ covered, total }: CoverageCount): number =>
  total === 0 ? 100 : Math.floor((covered * 1000) / total) / 10;

/** Whether `covered / total` is below `minimum` percent, compared exactly (no rounding). */
export const isBelow = ({ covered, total }: CoverageCount, minimum: number): boolean =>
  total > 0 && covered * 100 < minimum * total;

function entryOf(item: PlannedItem, tally: CoverageTally): CoverageEntry {
  const at = { line: item.line, col: item.col, ...(item.change === undefined ? {} : { change: item.change }) };
  switch (item.kind) {
    case 'policy': {
      const hits = tally.policies.get(item.policy) ?? 0;
      return { kind: 'policy', policy: item.policy, ...at, covered: hits > 0, hits };
    }
    case 'rule': {
      const rule = item.rule ?? '';
      const counts = tally.rules.get(ruleKey(item.policy, rule)) ?? { passed: 0, denied: 0, undecided: 0 };
      // Both outcomes: a rule seen only passing (or only denying) was never shown to tell the two
      // apart. A denial because it could not decide is the engine failing closed, not the rule's check.
      const covered = counts.passed > 0 && counts.denied > counts.undecided;
      return { kind: 'rule', policy: item.policy, rule, ...at, covered, ...counts };
    }
    case 'exception': {
      const exception = item.exception ?? '';
      const { waived, considered } = tally.exceptions.get(exception) ?? { waived: 0, considered: 0 };
      return { kind: 'exception', exception, policy: item.policy, ...at, covered: waived > 0, waived, considered };
    }
    case 'branch': {
      const hits = item.branch ? (tally.branches.get(item.branch) ?? 0) : 0;
      const { name = '', label = '' } = item.branch ?? {};
      return {
        kind: 'branch',
        policy: item.policy,
        rule: item.rule ?? '',
        branch: name,
        label,
        ...at,
        covered: hits > 0,
        hits,
      };
    }
  }
}

function countKinds(entries: readonly CoverageEntry[]): KindCounts {
  const kinds: KindCounts = {
    policies: { covered: 0, total: 0 },
    rules: { covered: 0, total: 0 },
    exceptions: { covered: 0, total: 0 },
    branches: { covered: 0, total: 0 },
  };
  for (const e of entries) {
    const count = kinds[KIND_COLUMN[e.kind]];
    count.total++;
    if (e.covered) count.covered++;
  }
  return kinds;
}

const sum = (entries: readonly CoverageEntry[]): CoverageCount => ({
  covered: entries.filter((e) => e.covered).length,
  total: entries.length,
});

/**
 * The coverage of a test run: every planned item with what exercised it, per file (in the order the
 * set's files were read) and in all. `minimum` is `--min-coverage` (a percent); `base` is
 * `--coverage-changed`'s directory (the plan then marks what changed).
 */
export function coverageReport(
  plan: readonly PlannedItem[],
  tally: CoverageTally,
  files: readonly string[],
  minimum?: number,
  base?: string,
): CoverageReport {
  const entries = plan.map((item) => ({ file: item.file, entry: entryOf(item, tally) }));
  const order = (file: string) => (files.includes(file) ? files.indexOf(file) : files.length);
  const names = [...new Set(entries.map((e) => e.file))].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
  const byFile: FileCoverage[] = names.map((file) => {
    const items = entries
      .filter((e) => e.file === file)
      .map((e) => e.entry)
      .sort((a, b) => a.line - b.line || a.col - b.col);
    const count = sum(items);
    return { file, ...count, percent: percentOf(count), kinds: countKinds(items), items };
  });
  const all = entries.map((e) => e.entry);
  const count = sum(all);
  return {
    version: 1,
    ...count,
    percent: percentOf(count),
    kinds: countKinds(all),
    ...(minimum === undefined ? {} : { minimum, belowMinimum: isBelow(count, minimum) }),
    ...(base === undefined ? {} : { changed: { base, ...sum(all.filter((e) => e.change !== undefined)) } }),
    files: byFile,
  };
}
