"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.PolicyResultTally = void 0;
const decision_1 = require("../policy/core/decision");
/** The results counted: every kind but `skipped` (a policy that did not apply). */
const COUNTED = ['pass', 'deny', 'warn', 'audit'];
/** A mode or result outside the types: a compile error here; at run time not counted, like `skipped` (counting must not stop the audit line). */
const uncounted = (_kind) => -1;
/**
 * A (mode, result) pair's slot in a policy's counts: each mode has one slot per counted result;
 * `skipped` is never counted (-1). Switches over the unions, so the compiler checks every mode and
 * result; a table read with changing string keys (`TABLE[mode][result]`) is a megamorphic property
 * load, twice per result, on the request path: on Node 26.12.1 `add()` took twice as long with one
 * (docs/decisions/0025-engine-comments-on-node-26.md).
 */
function slotOf(mode, result) {
    let first;
    switch (mode) {
        case 'enforce':
            first = 0;
            break;
        case 'warn':
            first = 4;
            break;
        case 'audit':
            first = 8;
            break;
        default:
            return uncounted(mode);
    }
    switch (result) {
        case 'pass':
            return first;
        case 'deny':
            return first + 1;
        case 'warn':
            return first + 2;
        case 'audit':
            return first + 3;
        case 'skipped':
            return -1;
        default:
            return uncounted(result);
    }
}
const SLOTS = decision_1.MODES.length * COUNTED.length;
/**
 * preflight_policy_results_total, counted on the request path in one Float64Array (SLOTS counts per
 * policy, found by the policy's offset in a Map: one lookup and one increment per result): a
 * decision at 10,000 policies has dozens of results, and prom-client builds and validates a label
 * key for every inc(). The counts are handed to prom-client when it is scraped. Float64 counts are
 * exact up to 2^53.
 */
class PolicyResultTally {
    /** Each policy's first slot in `table`: a number kept in the Map's own entry, no object per policy. */
    offsets = new Map();
    table = new Float64Array(SLOTS * 64);
    /** Counts every result except `skipped`. */
    add(results) {
        for (const r of results) {
            const slot = slotOf(r.mode, r.result);
            if (slot < 0)
                continue;
            const offset = this.offsets.get(r.policy) ?? this.place(r.policy);
            this.table[offset + slot]++;
        }
    }
    /** A policy's counts, placed after the last one (the table doubles when full). */
    place(policy) {
        const offset = this.offsets.size * SLOTS;
        if (offset + SLOTS > this.table.length) {
            const grown = new Float64Array(this.table.length * 2);
            grown.set(this.table);
            this.table = grown;
        }
        this.offsets.set(policy, offset);
        return offset;
    }
    *counts() {
        for (const [policy, offset] of this.offsets) {
            for (const mode of decision_1.MODES) {
                for (const result of COUNTED) {
                    const count = this.table[offset + slotOf(mode, result)];
                    if (count > 0)
                        yield { policy, mode, result, count };
                }
            }
        }
    }
}
exports.PolicyResultTally = PolicyResultTally;
//# sourceMappingURL=policy-result-tally.js.map