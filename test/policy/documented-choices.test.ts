import type { PreflightPayload, Step } from '../../src/payload/types';
import { decideAt } from '../helpers/decide-harness';

/**
 * The choices docs/policies.md states where the docs used to be silent or read two ways (issue 19,
 * item 9): wait steps and step filters, a warn/audit policy that cannot decide, and when an unknown
 * predicate shape denies. Each row is the documented answer.
 */
const NOW = '2026-01-05T10:00:00Z';
const steps =
  (...list: Step[]) =>
  (p: PreflightPayload) => {
    p.execution.steps = list;
  };
const check: Step = {
  stepType: 'ACTION',
  actionId: 'com.steadybit.extension_http.check.periodically',
  actionKind: 'CHECK',
};
const attack: Step = {
  stepType: 'ACTION',
  actionId: 'com.steadybit.extension_container.stress_cpu',
  actionKind: 'ATTACK',
  totalTargetCount: 1,
};
const wait: Step = { stepType: 'WAIT', parameters: { duration: '30s' } };

const resultOf = (files: Record<string, string>, change: (p: PreflightPayload) => void, policy = 'p') => {
  const d = decideAt(files, NOW, change);
  const r = d.results.find((x) => x.policy === policy);
  return {
    allowed: d.allowed,
    message: d.message,
    result: r?.result,
    reasons: r?.reasons ?? [],
    undecidable: (r?.findings ?? []).some((f) => f.undecidable === true),
  };
};

describe('a wait step is no action step: it never counts for match/exclude actionIds and actionKinds', () => {
  const excludeChecks = {
    'p.yaml':
      'kind: Policy\nname: p\nexclude: { actionKinds: [CHECK] }\nrules:\n  - timeWindow: { timeZone: UTC, allowed: [{ days: [Sat], from: "00:00", to: "24:00" }] }\n',
  };
  const matchAttacks = {
    'p.yaml':
      'kind: Policy\nname: p\nmatch: { actionKinds: [ATTACK] }\nrules:\n  - timeWindow: { timeZone: UTC, allowed: [{ days: [Sat], from: "00:00", to: "24:00" }] }\n',
  };
  test.each([
    [
      'CHECK steps and waits: every action step is excluded, so the policy is skipped',
      excludeChecks,
      steps(check, wait, check),
      'skipped',
      true,
    ],
    [
      'a CHECK, a wait and an ATTACK: the ATTACK is left, so the policy applies',
      excludeChecks,
      steps(check, wait, attack),
      'deny',
      false,
    ],
    [
      'only waits: nothing is excluded, so the policy applies (its run-level rules still judge the run)',
      excludeChecks,
      steps(wait, wait),
      'deny',
      false,
    ],
    [
      'only waits with a match step filter: no action step matches, so the policy is skipped',
      matchAttacks,
      steps(wait),
      'skipped',
      true,
    ],
    [
      'a wait and an ATTACK with a match step filter: the policy applies',
      matchAttacks,
      steps(wait, attack),
      'deny',
      false,
    ],
  ])('%s', (_name, files, change, result, allowed) => {
    const r = resultOf(files, change);
    expect([r.result, r.allowed]).toEqual([result, allowed]);
  });
});

describe('a policy that cannot decide: enforce denies; warn and audit never block, and record that they could not decide', () => {
  const policy = (mode: string) => ({
    'p.yaml': `kind: Policy\nname: p\nmode: ${mode}\nrules:\n  - parameters: { cpuLoad: { max: 80 } }\n`,
  });
  const noCpuLoad = steps(attack);
  test('enforce: 403, "cannot decide" in the message', () => {
    const r = resultOf(policy('enforce'), noCpuLoad);
    expect([r.allowed, r.result, r.undecidable]).toEqual([false, 'deny', true]);
    expect(r.message).toMatch(/^Denied by 1 policy: \[p\] cannot decide: /);
  });
  test('warn: allowed, the message says it would deny because it cannot decide', () => {
    const r = resultOf(policy('warn'), noCpuLoad);
    expect([r.allowed, r.result, r.undecidable]).toEqual([true, 'warn', true]);
    expect(r.message).toMatch(/^Allowed with warnings: \[p\] would deny: cannot decide: /);
  });
  test('audit: allowed, said only in the decision (audit log, metrics), flagged undecidable', () => {
    const r = resultOf(policy('audit'), noCpuLoad);
    expect([r.allowed, r.result, r.undecidable]).toEqual([true, 'audit', true]);
    expect(r.message).toMatch(/^Allowed: /);
    expect(r.reasons).toEqual([expect.stringMatching(/^cannot decide: /)]);
  });
});

describe('an unknown predicate shape denies exactly when a check depends on it (onUnknownShape: deny, the default)', () => {
  const rule = (extra = '') => ({
    'p.yaml': `kind: Policy\nname: p\nrules:\n  - blastRadius: { requireKeys: [k8s.namespace]${extra} }\n`,
  });
  const pin = { key: 'k8s.namespace', operator: 'EQUALS', values: ['shop'] };
  const strange = { key: 'k8s.namespace', operator: 'MATCHES_REGEX', values: ['sh.*'] };
  const other = { key: 'k8s.cluster-name', operator: 'EQUALS', values: ['prod'] };
  const predicate = (p: unknown) =>
    steps({ ...attack, radius: { targetType: 'com.steadybit.extension_container.container', predicate: p } } as Step);
  test.each([
    [
      'the unknown shape alone: the check depends on it, so the step cannot be decided',
      rule(),
      { operator: 'AND', predicates: [strange] },
      'deny',
      true,
    ],
    [
      'an unknown shape AND a pin of the key: the key is pinned whatever it means, so the step passes',
      rule(),
      { operator: 'AND', predicates: [strange, pin] },
      'pass',
      false,
    ],
    [
      'an OR whose other branch is known not to pin the key: denied for that branch, not "cannot decide"',
      rule(),
      { operator: 'OR', predicates: [strange, other] },
      'deny',
      false,
    ],
    [
      'onUnknownShape: ignore skips the check that depends on it',
      rule(', onUnknownShape: ignore'),
      { operator: 'AND', predicates: [strange] },
      'pass',
      false,
    ],
    [
      'ignore never hides a branch known to fail',
      rule(', onUnknownShape: ignore'),
      { operator: 'OR', predicates: [strange, other] },
      'deny',
      false,
    ],
  ])('%s', (_name, files, p, result, undecidable) => {
    const r = resultOf(files, predicate(p));
    expect([r.result, r.undecidable]).toEqual([result, undecidable]);
  });
});
