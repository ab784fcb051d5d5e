import type { CompiledPolicy, CompiledRule } from './compiled';

// A decision reads the same fields of dozens of policies and rules. Written as one literal with
// every field, in one order, wherever they are made (compiled, built in, numbered by
// assembleBundle, cut down for the guard), they share one hidden class and those reads stay
// monomorphic. A spread copy gets a class of its own: 991 classes for 1,000 policies made a full
// scan four times slower, and 14,950 for 14,957 rules sent every rule read megamorphic (Node 20).
// On Node 26.12.1 a full scan of 1,000 policies with spread copies took 1.16x the instructions
// (callgrind: 5.26 M against 4.53 M a decision; docs/decisions/0042-target-attributes-once-per-decision.md).

/** The policy as one literal with every field, in the one order. */
export function policyOf(p: CompiledPolicy): CompiledPolicy {
  return {
    name: p.name,
    description: p.description,
    mode: p.mode,
    priority: p.priority,
    source: p.source,
    matchSpec: p.matchSpec,
    match: p.match,
    exclude: p.exclude,
    rules: p.rules,
    message: p.message,
    modifications: p.modifications,
    passed: p.passed,
    whileRunning: p.whileRunning,
  };
}

/** The rule as one literal with every field, in the one order. */
export function ruleOf(r: CompiledRule): CompiledRule {
  return {
    kind: r.kind,
    path: r.path,
    check: r.check,
    needs: r.needs,
    staleParts: r.staleParts,
    answerSlot: r.answerSlot,
    deadMan: r.deadMan,
  };
}
