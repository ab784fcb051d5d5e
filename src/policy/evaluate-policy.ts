import type { CompiledException, CompiledPolicy } from './compiled';
import type { TemplateValues } from './template';
import type { Facts, Modification, PolicyResult, Violation } from './types';

export interface PolicyOutcome {
  result: PolicyResult;
  /** Modifications this policy contributes if the run is allowed. */
  modifications: Array<Modification & { policy: string }>;
}

export function baseValues(facts: Facts): TemplateValues {
  return {
    experimentKey: facts.execution.experimentKey,
    team: facts.execution.teamKey,
    environment: facts.environments.map((e) => e.value).join(' / ') || undefined,
    executionId: facts.execution.id === undefined ? undefined : String(facts.execution.id),
    decisionId: facts.decisionId,
    revision: facts.revision,
    now: facts.now.toISOString(),
  };
}

function checkRules(policy: CompiledPolicy, facts: Facts, steps: Facts['actionSteps']): Violation[] {
  const violations: Violation[] = [];
  for (const rule of policy.rules) {
    try {
      violations.push(...rule.check({ facts, steps }));
    } catch (err) {
      // Fail closed: a rule that throws cannot decide, and that counts against the run.
      violations.push({ reason: `cannot decide: rule ${rule.path} failed (${err instanceof Error ? err.message : String(err)})`, undecidable: true });
    }
  }
  return violations;
}

function render(policy: CompiledPolicy, v: Violation, base: TemplateValues): string {
  if (!policy.message) return v.reason;
  return policy.message({ ...base, policy: policy.name, reason: v.reason, step: v.step?.label, target: v.target, value: v.value });
}

/** Evaluates one policy against the run. Pure; never throws for a rule's failure. */
export function evaluatePolicy(policy: CompiledPolicy, facts: Facts, exceptions: readonly CompiledException[]): PolicyOutcome {
  const result = (kind: PolicyResult['result'], reasons: string[], extra: Partial<PolicyResult> = {}): PolicyResult => ({
    policy: policy.name, mode: policy.mode, priority: policy.priority, result: kind, reasons, source: policy.source, ...extra,
  });
  const miss = policy.match.runMiss(facts) ?? policy.exclude.runMiss(facts);
  if (miss !== undefined) return { result: result('skipped', [miss]), modifications: [] };

  let steps = facts.actionSteps;
  if (policy.match.hasStepFilter) steps = steps.filter((s) => policy.match.stepMatches(s));
  if (policy.exclude.hasStepFilter) steps = steps.filter((s) => !policy.exclude.stepMatches(s));
  if (policy.match.hasStepFilter && steps.length === 0) {
    return { result: result('skipped', ['no step matches actionIds/actionKinds']), modifications: [] };
  }

  const violations = checkRules(policy, facts, steps);
  const base = baseValues(facts);
  if (violations.length > 0) {
    const reasons = violations.map((v) => render(policy, v, base));
    const waiver = exceptions.find((e) => e.policy === policy.name && e.expires > facts.now && e.match.runMiss(facts) === undefined);
    if (waiver) {
      const why = `waived by exception "${waiver.name}" (owner ${waiver.owner}, until ${waiver.expires.toISOString()}: ${waiver.reason}); would have denied: ${reasons.join('; ')}`;
      return { result: result('skipped', [why], { exception: waiver.name }), modifications: [] };
    }
    const kind = policy.mode === 'enforce' ? 'deny' : policy.mode;
    return { result: result(kind, reasons, { message: reasons.join('; ') }), modifications: kind === 'deny' ? [] : contribute(policy, base) };
  }
  return { result: result('pass', []), modifications: contribute(policy, base) };
}

function contribute(policy: CompiledPolicy, base: TemplateValues): PolicyOutcome['modifications'] {
  const values = { ...base, policy: policy.name };
  return policy.modifications.map((m) => ({ type: m.type, propertyKey: m.propertyKey, value: m.render(values), policy: policy.name }));
}
