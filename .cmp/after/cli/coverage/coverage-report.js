"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isBelow = exports.percentOf = void 0;
exports.coverageReport = coverageReport;
const coverage_plan_1 = require("./coverage-plan");
const KIND_COLUMN = {
    policy: 'policies',
    rule: 'rules',
    exception: 'exceptions',
    branch: 'branches',
};
/** Rounded down, so 99.96% never reads as 100.0% (the threshold compares the exact fraction). */
const percentOf = ({ covered, total }) => total === 0 ? 100 : Math.floor((covered * 1000) / total) / 10;
exports.percentOf = percentOf;
/** Whether `covered / total` is below `minimum` percent, compared exactly (no rounding). */
const isBelow = ({ covered, total }, minimum) => total > 0 && covered * 100 < minimum * total;
exports.isBelow = isBelow;
function entryOf(item, tally) {
    const at = { line: item.line, col: item.col, ...(item.change === undefined ? {} : { change: item.change }) };
    switch (item.kind) {
        case 'policy': {
            const hits = tally.policies.get(item.policy) ?? 0;
            return { kind: 'policy', policy: item.policy, ...at, covered: hits > 0, hits };
        }
        case 'rule': {
            const rule = item.rule ?? '';
            const counts = tally.rules.get((0, coverage_plan_1.ruleKey)(item.policy, rule)) ?? { passed: 0, denied: 0, undecided: 0 };
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
function countKinds(entries) {
    const kinds = {
        policies: { covered: 0, total: 0 },
        rules: { covered: 0, total: 0 },
        exceptions: { covered: 0, total: 0 },
        branches: { covered: 0, total: 0 },
    };
    for (const e of entries) {
        const count = kinds[KIND_COLUMN[e.kind]];
        count.total++;
        if (e.covered)
            count.covered++;
    }
    return kinds;
}
const sum = (entries) => ({
    covered: entries.filter((e) => e.covered).length,
    total: entries.length,
});
/**
 * The coverage of a test run: every planned item with what exercised it, per file (in the order the
 * set's files were read) and in all. `minimum` is `--min-coverage` (a percent); `base` is
 * `--coverage-changed`'s directory (the plan then marks what changed).
 */
function coverageReport(plan, tally, files, minimum, base) {
    const entries = plan.map((item) => ({ file: item.file, entry: entryOf(item, tally) }));
    const order = (file) => (files.includes(file) ? files.indexOf(file) : files.length);
    const names = [...new Set(entries.map((e) => e.file))].sort((a, b) => order(a) - order(b) || a.localeCompare(b));
    const byFile = names.map((file) => {
        const items = entries
            .filter((e) => e.file === file)
            .map((e) => e.entry)
            .sort((a, b) => a.line - b.line || a.col - b.col);
        const count = sum(items);
        return { file, ...count, percent: (0, exports.percentOf)(count), kinds: countKinds(items), items };
    });
    const all = entries.map((e) => e.entry);
    const count = sum(all);
    return {
        version: 1,
        ...count,
        percent: (0, exports.percentOf)(count),
        kinds: countKinds(all),
        ...(minimum === undefined ? {} : { minimum, belowMinimum: (0, exports.isBelow)(count, minimum) }),
        ...(base === undefined ? {} : { changed: { base, ...sum(all.filter((e) => e.change !== undefined)) } }),
        files: byFile,
    };
}
//# sourceMappingURL=coverage-report.js.map