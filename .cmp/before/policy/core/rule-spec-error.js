"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RuleSpecErrors = exports.RuleSpecError = void 0;
exports.checkEach = checkEach;
exports.checkAll = checkAll;
/** A semantic problem in a rule's spec, found at load time. `path` is relative to the rule. */
class RuleSpecError extends Error {
    path;
    constructor(message, path = []) {
        super(message);
        this.path = path;
        this.name = 'RuleSpecError';
    }
}
exports.RuleSpecError = RuleSpecError;
/** Several RuleSpecErrors of one spec, reported together (every malformed window, limit...). */
class RuleSpecErrors extends Error {
    errors;
    constructor(errors) {
        super(errors.map((e) => e.message).join('; '));
        this.errors = errors;
        this.name = 'RuleSpecErrors';
    }
}
exports.RuleSpecErrors = RuleSpecErrors;
/**
 * `check` over every item, collecting the RuleSpecError of each: a spec with three bad windows
 * reports three problems at once, not the first. Throws RuleSpecErrors when any item failed.
 */
function checkEach(items, check) {
    const out = [];
    const errors = [];
    items.forEach((item, i) => {
        try {
            out.push(check(item, i));
        }
        catch (err) {
            if (err instanceof RuleSpecError)
                errors.push(err);
            else if (err instanceof RuleSpecErrors)
                errors.push(...err.errors);
            else
                throw err;
        }
    });
    if (errors.length > 0)
        throw new RuleSpecErrors(errors);
    return out;
}
/** Each part checked, every failure reported: `checkAll(() => a(), () => b())` -> [a, b]. */
function checkAll(...parts) {
    return checkEach(parts, (part) => part());
}
//# sourceMappingURL=rule-spec-error.js.map