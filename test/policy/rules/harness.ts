import { decide } from '../../../src/policy/decide';
import { loadBundle } from '../../../src/policy/load-bundle';
import type { LoadProblem } from '../../../src/policy/load-error';
import type { PreflightPayload, Step } from '../../../src/payload/types';
import { preflightWith } from '../../helpers/fixtures';
import { bundleFrom } from '../../helpers/test-app';

export const NOW = new Date('2026-01-05T10:00:00Z');

/** A policy named `p` with one rule, written as YAML flow text: `targets: {maxPerStep: 10}`. */
export function policyYaml(rule: string, extra = ''): string {
  return `kind: Policy\nname: p\n${extra}rules:\n  - ${rule}\n`;
}

/** The reasons policy `p` gives for the payload; empty when it passes; `out of scope` when not evaluated. */
export function reasonsFor(rule: string, payload: PreflightPayload, extra = ''): string[] {
  const decision = decide(bundleFrom({ 'p.yaml': policyYaml(rule, extra) }, NOW), payload, {}, NOW, { decisionId: 'd-1' });
  const result = decision.results.find((r) => r.policy === 'p');
  if (!result) return ['out of scope'];
  if (result.result === 'pass') {
    expect(decision.allowed).toBe(true);
    return [];
  }
  if (result.result === 'deny') expect(decision.allowed).toBe(false);
  return result.result === 'skipped' ? [`skipped: ${result.reasons.join('; ')}`] : result.reasons;
}

/** The real spec example; its steps[1] is the stress_cpu ATTACK on one container. */
export function withAttack(change: (step: Step, payload: PreflightPayload) => void): PreflightPayload {
  return preflightWith((p) => change((p.execution.steps as Step[])[1], p));
}

/** Problems loading a one-file policy set. */
export function problemsOf(yaml: string): LoadProblem[] {
  const result = loadBundle([{ file: 'policies/p.yaml', text: yaml }], NOW);
  return result.ok ? [] : result.problems;
}
