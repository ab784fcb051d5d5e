"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.changesUncovered = exports.uncoveredChanges = exports.uncoveredItems = void 0;
exports.itemName = itemName;
exports.uncoveredText = uncoveredText;
exports.changedVerdict = changedVerdict;
exports.coverageVerdict = coverageVerdict;
/**
 * What an item is, as reports name it: `rule rules[0].timeWindow of policy change-freeze`, and
 * `(added)` or `(edited)` after a rule or window the change made (--coverage-changed).
 */
function itemName(e) {
    return e.change === undefined ? writtenName(e) : `${writtenName(e)} (${e.change})`;
}
function writtenName(e) {
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
const cases = (n) => `${n} case${n === 1 ? '' : 's'}`;
/** Why an item is not covered, in words a policy author can act on. */
function uncoveredText(e) {
    switch (e.kind) {
        case 'policy':
            return `${itemName(e)}: no case made it apply (no case was inside its match and exclude scope)`;
        case 'rule':
            if (e.passed + e.denied === 0)
                return `${itemName(e)}: no case made it judge (its policy never applied)`;
            if (e.passed === 0 && e.denied === e.undecided)
                return `${itemName(e)}: never seen to pass or deny (it could not decide in ${cases(e.undecided)})`;
            if (e.passed === 0)
                return `${itemName(e)}: never seen to pass (it denied in ${cases(e.denied)}, no case got past it)`;
            return `${itemName(e)}: never seen to deny (it passed in ${cases(e.passed)}${e.undecided > 0 ? ` and could not decide in ${cases(e.undecided)}` : ''}, no case made it find something)`;
        case 'exception':
            return e.considered > 0
                ? `${itemName(e)}: never waived a case (considered in ${e.considered}, it did not match or no longer waives)`
                : `${itemName(e)}: never waived a case (no case had ${e.policy} find something for it to waive)`;
        case 'branch':
            return `${itemName(e)}: no case ran ${e.label}`;
    }
}
/** Every item not covered, with its file, in report order. */
const uncoveredItems = (report) => report.files.flatMap((f) => f.items.filter((e) => !e.covered).map((entry) => ({ file: f.file, entry })));
exports.uncoveredItems = uncoveredItems;
/** The rules and windows the change adds or edits that are not covered (--coverage-changed): each fails `test`. */
const uncoveredChanges = (report) => (0, exports.uncoveredItems)(report).filter(({ entry }) => entry.change !== undefined);
exports.uncoveredChanges = uncoveredChanges;
/** Whether --coverage-changed was given and something the change adds or edits is not covered. */
const changesUncovered = (report) => report.changed !== undefined && report.changed.covered < report.changed.total;
exports.changesUncovered = changesUncovered;
/**
 * The verdict on what changed since the base, when --coverage-changed was given: `Changed since
 * base/policies: 1 of 3 added or edited items (rules, time-window branches) not covered
 * (--coverage-changed)`.
 */
function changedVerdict(report) {
    const { changed } = report;
    if (changed === undefined)
        return undefined;
    const since = `Changed since ${changed.base}:`;
    if (changed.total === 0)
        return `${since} no rule or time-window branch added or edited (--coverage-changed)`;
    const what = 'added or edited items (rules, time-window branches)';
    return (0, exports.changesUncovered)(report)
        ? `${since} ${changed.total - changed.covered} of ${changed.total} ${what} not covered (--coverage-changed)`
        : `${since} all ${changed.total} ${what} covered (--coverage-changed)`;
}
/** The verdict line: `Coverage: 87.5% (14 of 16 items)`, and the minimum when one was given. */
function coverageVerdict(report) {
    const figure = `${report.percent.toFixed(1)}% (${report.covered} of ${report.total} items: policies, rules, exceptions, time-window branches)`;
    if (report.minimum === undefined)
        return `Coverage: ${figure}`;
    return report.belowMinimum
        ? `Coverage: ${figure} is below the minimum of ${report.minimum}% (--min-coverage)`
        : `Coverage: ${figure} meets the minimum of ${report.minimum}% (--min-coverage)`;
}
//# sourceMappingURL=uncovered-text.js.map