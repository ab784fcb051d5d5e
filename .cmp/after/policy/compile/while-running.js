"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.isReJudged = exports.RE_JUDGED_KINDS = void 0;
exports.compileWhileRunning = compileWhileRunning;
/**
 * Rule kinds whose answer can change while a run is in progress: they read the time or live facts
 * (docs/guard.md). Only these are judged again; the others (environments, actions, targets, blast
 * radius, attributes, parameters, and the state counts concurrency, cooldown and quota, which were
 * about starting) are fixed once the run was allowed.
 */
exports.RE_JUDGED_KINDS = ['timeWindow', 'alerts', 'prometheus', 'condition'];
const isReJudged = (rule) => exports.RE_JUDGED_KINDS.includes(rule.kind);
exports.isReJudged = isReJudged;
/**
 * The compiled `whileRunning:` of a policy, or a problem when none of its rules can change during a
 * run (then guarding it would never stop anything: a mistake worth saying at load).
 */
function compileWhileRunning(spec, rules) {
    if (!rules.some(exports.isReJudged)) {
        const kinds = [...new Set(rules.map((r) => r.kind))].join(', ') || 'none';
        return `none of this policy's rules can change during a run (its rules: ${kinds}); only ${exports.RE_JUDGED_KINDS.join(', ')} are judged again (docs/guard.md)`;
    }
    return Object.freeze({ onCannotJudge: spec === true ? 'report' : (spec.onCannotJudge ?? 'report') });
}
//# sourceMappingURL=while-running.js.map