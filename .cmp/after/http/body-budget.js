"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.budgetFromHeap = exports.HEAP_SHARE = void 0;
exports.bodyBudget = bodyBudget;
/**
 * The share of V8's heap limit (`heap_size_limit`, what --max-old-space-size bounds) that request
 * bodies may take while they are read and decided, unless BODY_BUDGET says otherwise. A body costs
 * about 4-5 times its size at its peak: the bytes (outside the heap), the decoded text and the
 * parsed payload, about twice the text (docs/decisions/0007-body-budget.md has the measurements).
 */
exports.HEAP_SHARE = 1 / 8;
/** BODY_BUDGET when it is not set: the heap share of the heap limit of this process. */
const budgetFromHeap = (heapLimitBytes) => Math.floor(heapLimitBytes * exports.HEAP_SHARE);
exports.budgetFromHeap = budgetFromHeap;
/**
 * Bounds the bytes of request bodies being read or decided at once (BODY_BUDGET), so that no load
 * can take the process past its heap: a body that does not fit is refused before it is read.
 * The last eighth of the budget is kept for small bodies (at most a sixteenth of that eighth
 * each: an ordinary preflight), so a flood of large bodies cannot crowd out a normal run's check.
 */
function bodyBudget(limit) {
    const keptBack = Math.floor(limit / 8);
    const smallBody = Math.floor(keptBack / 16);
    let used = 0;
    const fits = (heldAfter, more) => used + more <= (heldAfter <= smallBody ? limit : limit - keptBack);
    return {
        limit,
        smallBody,
        inFlight: () => used,
        reserve(bytes) {
            if (!fits(bytes, bytes))
                return undefined;
            used += bytes;
            let held = bytes;
            let released = false;
            return {
                grow(more) {
                    if (released || !fits(held + more, more))
                        return false;
                    used += more;
                    held += more;
                    return true;
                },
                release() {
                    if (released)
                        return;
                    released = true;
                    used -= held;
                },
            };
        },
    };
}
//# sourceMappingURL=body-budget.js.map