import { decide } from '../../src/policy/engine/decide';
import { formatProblem, type LoadProblem } from '../../src/policy/compile/load-error';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import type { PreflightPayload, Step } from '../../src/payload/types';
import type { Decision } from '../../src/policy/core/decision';
import { preflightWith } from './fixtures';
import { bundleFrom } from './bundle-from';

/** The tests' "now": Monday 2026-01-05, 10:00 UTC. */
export const NOW = new Date('2026-01-05T10:00:00Z');

/** A policy document with one rule, written as YAML flow text (`targets: {maxPerStep: 10}`); `extra` goes before `rules:`. */
export function policyDocument(rule: string, extra = '', name = 'p'): string {
  return `kind: Policy\nname: ${name}\n${extra}rules:\n  - ${rule}\n`;
}

/** The decision on the spec example (changed by `change`) at `now`, with no facts; a full scan lists every policy. */
export function decideAt(
  files: Record<string, string>,
  now: Date | string,
  change: (p: PreflightPayload) => void = () => undefined,
): Decision {
  const at = new Date(now);
  return decide(bundleFrom(files, at), preflightWith(change), {}, at, { decisionId: 'd-1', fullScan: true });
}

/** The reasons policy `p` (one rule) gives for the payload: empty when it passes; `out of scope` when not evaluated. */
export function reasonsFor(rule: string, payload: PreflightPayload, extra = ''): string[] {
  const decision = decide(bundleFrom({ 'p.yaml': policyDocument(rule, extra) }, NOW), payload, {}, NOW, {
    decisionId: 'd-1',
  });
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

/** The load problems of an inline policy set, formatted as the CLI prints them: its errors, or its warnings when it loads. */
export function loadProblems(files: Record<string, string>, now = NOW): string[] {
  const result = loadBundle(
    Object.entries(files).map(([file, text]) => ({ file, text })),
    now,
  );
  return result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem);
}

/** The errors loading one policy file (policies/p.yaml); none when it loads. */
export function problemsOf(yaml: string): LoadProblem[] {
  const result = loadBundle([{ file: 'policies/p.yaml', text: yaml }], NOW);
  return result.ok ? [] : result.problems;
}
