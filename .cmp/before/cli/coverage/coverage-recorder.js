"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CoverageRecorder = void 0;
const coverage_plan_1 = require("./coverage-plan");
const bump = (map, key) => map.set(key, (map.get(key) ?? 0) + 1);
/** The policy's rules were judged: it applied (pass, deny, warn, audit), or an exception waived what they found. */
const judged = (r) => r.result !== 'skipped' || r.exception !== undefined;
/** Its rules found something, so its exceptions were asked whether they waive it. */
const foundSomething = (r) => r.result === 'deny' || r.result === 'warn' || r.result === 'audit' || r.exception !== undefined;
/**
 * Records what decisions exercised, read from the decisions alone (each policy's result and its
 * rules' findings, as `eval --explain` shows them): nothing is written on the bundle and nothing is
 * decided again. One recorder per test run; `decided` is the bundle a decision was made on (the
 * served set, or the guard's view of it for whileRunning cases: fewer rules per policy).
 */
class CoverageRecorder {
    tally = { policies: new Map(), rules: new Map(), exceptions: new Map(), branches: new Map() };
    branchesByRule = new Map();
    policiesOf = new Map();
    constructor(plan) {
        for (const item of plan) {
            if (item.kind !== 'branch' || !item.branch || !item.rule)
                continue;
            const key = (0, coverage_plan_1.ruleKey)(item.policy, item.rule);
            this.branchesByRule.set(key, [...(this.branchesByRule.get(key) ?? []), item.branch]);
        }
    }
    record(decided, decision) {
        const policies = this.policyMap(decided);
        for (const result of decision.results) {
            const policy = policies.get(result.policy);
            if (!policy || !judged(result))
                continue;
            bump(this.tally.policies, policy.name);
            for (const rule of policy.rules)
                this.recordRule(policy.name, rule.path, result.findings ?? []);
            if (foundSomething(result))
                this.recordExceptions(decided, result);
        }
    }
    recordRule(policy, path, all) {
        const key = (0, coverage_plan_1.ruleKey)(policy, path);
        const findings = all.filter((f) => f.rule === path);
        const counts = this.tally.rules.get(key) ?? { passed: 0, denied: 0, undecided: 0 };
        if (findings.length === 0)
            counts.passed++;
        else
            counts.denied++;
        if (findings.length > 0 && findings.every((f) => f.undecidable === true))
            counts.undecided++;
        this.tally.rules.set(key, counts);
        // A rule that could not decide took none of its branches.
        if (findings.some((f) => f.undecidable === true))
            return;
        for (const branch of this.branchesByRule.get(key) ?? [])
            if (branch.taken(findings))
                bump(this.tally.branches, branch);
    }
    recordExceptions(decided, result) {
        for (const e of decided.exceptionsByPolicy.get(result.policy) ?? []) {
            const counts = this.tally.exceptions.get(e.name) ?? { waived: 0, considered: 0 };
            if (result.exception === e.name)
                counts.waived++;
            else
                counts.considered++;
            this.tally.exceptions.set(e.name, counts);
        }
    }
    policyMap(decided) {
        let map = this.policiesOf.get(decided);
        if (!map) {
            map = new Map(decided.policies.map((p) => [p.name, p]));
            this.policiesOf.set(decided, map);
        }
        return map;
    }
}
exports.CoverageRecorder = CoverageRecorder;
//# sourceMappingURL=coverage-recorder.js.map