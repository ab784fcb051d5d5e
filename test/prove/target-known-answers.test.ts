import { diffSets, proveProperty, type Witness } from '../../src/prove/analysis';
import { readProperties } from '../../src/prove/property-file';
import { decide } from '../../src/policy/engine/decide';
import { expectDecided, NOW, setDirs, setOf } from './prove-sets';

/**
 * Pairs of sets whose differences lie in the step's targets (targetAttributes, docs/prove.md): diff
 * finds each with a witness whose payload lists the targets, decided again here with both whole sets.
 */
const namespaces = (spec: string, scope = '') => `kind: Policy
name: namespaces
${scope}rules:
  - targetAttributes: ${spec}
`;

const step = (w: Witness) => w.payload.execution.steps?.[0] ?? {};
const valuesOf = (w: Witness, key: string) =>
  (step(w).targetExecutions ?? []).flatMap((t) =>
    (t.attributes ?? []).filter((a) => a.key === key).map((a) => a.value),
  );

describe('diff: known differences in the targets', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = (base: Record<string, string>, proposed: Record<string, string>) => {
    const b = setOf(dirs.write(base));
    const p = setOf(dirs.write(proposed));
    const r = diffSets(b, p, NOW);
    expectDecided(r, b, p);
    return r;
  };

  it('identical target rules: no run would be decided differently', () => {
    const p = { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system, payments] } }') };
    const r = diff(p, p);
    expect(r.witnesses).toEqual([]);
    expect(r.unknown).toEqual([]);
  });

  it('a denied attribute value removed: runs reaching a target with that value are newly allowed', () => {
    const r = diff(
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system, payments] } }') },
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system] } }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(valuesOf(r.witnesses[0], 'k8s.namespace')).toContain('payments');
  });

  it('an allowed value list widened (values compare exactly, no glob): the added value is newly allowed', () => {
    const r = diff(
      { 'p.yaml': namespaces('{ allowOnly: { k8s.namespace: [shop] } }') },
      { 'p.yaml': namespaces('{ allowOnly: { k8s.namespace: [shop, Shop-Canary] } }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(new Set(valuesOf(r.witnesses[0], 'k8s.namespace'))).toEqual(new Set(['Shop-Canary']));
  });

  it('whenMissing loosened to allow: a run whose targets cannot be checked is newly allowed', () => {
    const r = diff(
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system] } }') },
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system] }, whenMissing: allow }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(r.witnesses[0].base?.message).toMatch(/cannot decide/);
  });

  it('an exception narrowed: runs of the team reaching the forbidden value outside its keys are newly denied', () => {
    const exception = (keys: string) => `kind: Exception
name: migration
policy: namespaces
owner: sre@example.com
reason: namespace migration CHG-9
expires: "2026-06-01T00:00:00Z"
match: { teams: [SRE]${keys} }
`;
    const policy = namespaces('{ forbid: { k8s.namespace: [payments] }, whenMissing: allow }');
    const r = diff(
      { 'p.yaml': policy, 'e.yaml': exception('') },
      { 'p.yaml': policy, 'e.yaml': exception(', experimentKeys: ["PAY-*"]') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    const w = r.witnesses[0];
    expect(w.payload.execution.teamKey?.toUpperCase()).toBe('SRE');
    expect(w.payload.execution.experimentKey?.toUpperCase().startsWith('PAY-')).not.toBe(true);
    expect(valuesOf(w, 'k8s.namespace')).toContain('payments');
  });

  it('a count cap dropped where every target must be checked: the witness lists every target it expects', () => {
    const set = (cap: string) => ({
      'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system] } }'),
      'cap.yaml': `kind: Policy\nname: cap\nrules:\n  - targets: { ${cap} }\n`,
    });
    const r = diff(set('maxPerStep: 3, maxPercentage: 100'), set('maxPercentage: 100'));
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const s = step(r.witnesses[0]);
    expect(s.totalTargetCount).toBeGreaterThan(3);
    expect(s.targetExecutions).toHaveLength(s.totalTargetCount as number);
    expect(valuesOf(r.witnesses[0], 'k8s.namespace')).not.toContain('kube-system');
  });

  it('a target rule changed in a policy scoped by ownedBy is unknown, never "no difference"', () => {
    const scope = 'match: { ownedBy: { team: PAY, attribute: k8s.label.team } }\n';
    const r = diff(
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system, payments] } }', scope) },
      { 'p.yaml': namespaces('{ forbid: { k8s.namespace: [kube-system] } }', scope) },
    );
    expect(r.witnesses).toEqual([]);
    expect(r.unknown.join('\n')).toMatch(/namespaces rules\[0\]\.targetAttributes changed and is beyond the analysis/);
  });
});

describe('prove: no run that reaches a target in namespace payments is ever allowed', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const PROPERTY = `kind: PolicyProperty
name: never-payments-namespace
never:
  rules:
    - targetAttributes: { forbid: { k8s.namespace: [payments] }, whenMissing: allow }
`;
  const prove = (policies: Record<string, string>) => {
    const dir = dirs.write({ ...policies, 'payments.property.yaml': PROPERTY });
    const set = setOf(dir);
    const [property] = readProperties(dir, set.aliases, NOW).properties;
    return { set, result: proveProperty(set, property, NOW) };
  };

  it('proven by a set that allows only other namespaces (a different rule than the property)', () => {
    const { result } = prove({ 'p.yaml': namespaces('{ allowOnly: { k8s.namespace: [shop, cart] } }') });
    expect(result).toMatchObject({ status: 'proven' });
  });

  it('a set that forbids it only in production: a counterexample elsewhere, allowed by the engine', () => {
    const { set, result } = prove({
      'p.yaml': namespaces('{ forbid: { k8s.namespace: [payments] } }', 'match: { environments: [production] }\n'),
    });
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect(valuesOf(w, 'k8s.namespace')).toContain('payments');
    expect(w.payload.execution.environment?.toLowerCase()).not.toBe('production');
    expect(decide(set.bundle, w.payload, w.facts, new Date(w.now), { decisionId: 't' }).allowed).toBe(true);
  });

  it('a set that guards it only through ownedBy: unknown, never proven', () => {
    const { result } = prove({
      'p.yaml': `kind: Policy
name: payments-owned
match: { ownedBy: { team: PAY, attribute: k8s.namespace, values: [payments] } }
rules:
  - environments: { blocked: [prove-nowhere] }
  - actions: { allowed: [nothing-at-all] }
`,
    });
    expect(result.status).toBe('unknown');
  });
});
