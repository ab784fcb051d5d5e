import type { CompiledPolicy, PolicyBundle } from '../../policy/core/compiled';
import type { Decision, Finding, PolicyResult } from '../../policy/core/decision';
import type { RuleBranch } from '../../policy/core/rule-branch';
import { ruleKey, type PlannedItem } from './coverage-plan';

/** How often each planned item was exercised, by the decisions of one test run. */
export interface CoverageTally {
  /** Decisions in which the policy applied (its rules judged), by policy. */
  policies: Map<string, number>;
  /**
   * Per rule (ruleKey): decisions in which it found nothing, in which it found something (or could
   * not decide), and of those, in which it only could not decide (it denied, failing closed, but its
   * check never judged the run).
   */
  rules: Map<string, RuleCounts>;
  /** Per exception: decisions it waived, and decisions it was considered in without waiving. */
  exceptions: Map<string, { waived: number; considered: number }>;
  /** Per branch (the planned RuleBranch): decisions that took it. */
  branches: Map<RuleBranch, number>;
}

export interface RuleCounts {
  passed: number;
  denied: number;
  undecided: number;
}

const bump = <K>(map: Map<K, number>, key: K) => map.set(key, (map.get(key) ?? 0) + 1);

/** The policy's rules were judged: it applied (pass, deny, warn, audit), or an exception waived what they found. */
const judged = (r: PolicyResult) => r.result !== 'skipped' || r.exception !== undefined;

/** Its rules found something, so its exceptions were asked whether they waive it. */
const foundSomething = (r: PolicyResult) =>
  r.result === 'deny' || r.result === 'warn' || r.result === 'audit' || r.exception !== undefined;

/**
 * Records what decisions exercised, read from the decisions alone (each policy's result and its
 * rules' findings, as `eval --explain` shows them): nothing is written on the bundle and nothing is
 * decided again. One recorder per test run; `decided` is the bundle a decision was made on (the
 * served set, or the guard's view of it for whileRunning cases: fewer rules per policy).
 */
export class CoverageRecorder {
  readonly tally: CoverageTally = { policies: new Map(), rules: new Map(), exceptions: new Map(), branches: new Map() };
  private readonly branchesByRule = new Map<string, RuleBranch[]>();
  private readonly policiesOf = new Map<PolicyBundle, Map<string, CompiledPolicy>>();

  constructor(plan: readonly PlannedItem[]) {
    for (const item of plan) {
      if (item.kind !== 'branch' || !item.branch || !item.rule) continue;
      const key = ruleKey(item.policy, item.rule);
      this.branchesByRule.set(key, [...(this.branchesByRule.get(key) ?? []), item.branch]);
    }
  }

  record(decided: PolicyBundle, decision: Decision): void {
    const policies = this.policyMap(decided);
    for (const result of decision.results) {
      const policy = policies.get(result.policy);
      if (!policy || !judged(result)) continue;
      bump(this.tally.policies, policy.name);
      for (const rule of policy.rules) this.recordRule(policy.name, rule.path, result.findings ?? []);
      if (foundSomething(result)) this.recordExceptions(decided, result);
    }
  }

  private recordRule(policy: string, path: string, all: readonly Finding[]): void {
    const key = ruleKey(policy, path);
    const findings = all.filter((f) => f.rule === path);
    const counts = this.tally.rules.get(key) ?? { passed: 0, denied: 0, undecided: 0 };
    if (findings.length === 0) counts.passed++;
    else counts.denied++;
    if (findings.length > 0 && findings.every((f) => f.undecidable === true)) counts.undecided++;
    this.tally.rules.set(key, counts);
    // A rule that could not decide took none of its branches.
    if (findings.some((f) => f.undecidable === true)) return;
    for (const branch of this.branchesByRule.get(key) ?? [])
      if (branch.taken(findings)) bump(this.tally.branches, branch);
  }

  private recordExceptions(decided: PolicyBundle, result: PolicyResult): void {
    for (const e of decided.exceptionsByPolicy.get(result.policy) ?? []) {
      const counts = this.tally.exceptions.get(e.name) ?? { waived: 0, considered: 0 };
      if (result.exception === e.name) counts.waived++;
      else counts.considered++;
      this.tally.exceptions.set(e.name, counts);
    }
  }

  private policyMap(decided: PolicyBundle): Map<string, CompiledPolicy> {
    let map = this.policiesOf.get(decided);
    if (!map) {
      map = new Map(decided.policies.map((p) => [p.name, p]));
      this.policiesOf.set(decided, map);
    }
    return map;
  }
}
