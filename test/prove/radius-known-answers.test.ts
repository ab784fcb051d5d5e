import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { type DiffResult, diffSets, type Witness } from '../../src/prove/analysis';

import { parsePredicate } from '../../src/policy/predicate/parse-predicate';
import { toPaths } from '../../src/policy/predicate/to-paths';
import { admitsValue, pinsKey, restricts } from '../../src/policy/predicate/judge-path';
import { BUNDLED, evalWitness, NOW, setDirs, setOf, proveDir } from './prove-sets';

/**
 * Pairs of sets whose differences lie in `blastRadius` (the step's radius.predicate) and `noMuting`
 * (action ids and parameters), docs/prove.md: diff finds each with a witness, and every witness is
 * decided again here by `eval` in-process with each whole set (the engine, not the analysis).
 */
const guard = (spec: string, scope = 'match: { environments: [production] }\n') => `kind: Policy
name: guard
${scope}rules:
  - blastRadius: ${spec}
`;
const mutes = (list: string) => `kind: Policy
name: quiet
rules:
  - noMuting:
      mutes:
${list}`;
const DATADOG = `        - what: a Datadog monitor downtime
          actions: [com.steadybit.extension_datadog.monitor.downtime]
`;
const SILENCE = `        - what: an Alertmanager silence
          actions: [com.steadybit.extension_http.*]
          parameters: { url: "*/api/v*/silence*" }
`;

const step = (w: Witness) => w.payload.execution.steps?.[0] ?? {};
const predicateOf = (w: Witness) => step(w).radius?.predicate;
/** The ways through the witness's predicate as blastRadius reads them: none sent is one way with no condition. */
const ways = (w: Witness) => {
  const raw = predicateOf(w);
  return raw === undefined ? [[]] : toPaths(parsePredicate(raw));
};

describe('diff: known differences in blast-radius predicates and mutes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  /** The diff, each witness decided by eval with both directories as it says. */
  const diff = async (base: string, proposed: string): Promise<DiffResult> => {
    const r = diffSets(setOf(base), setOf(proposed), NOW);
    for (const w of r.witnesses) {
      expect(await evalWitness(base, w)).toBe(w.base?.allowed);
      expect(await evalWitness(proposed, w)).toBe(w.proposed?.allowed);
    }
    return r;
  };
  const pair = (base: Record<string, string>, proposed: Record<string, string>) =>
    diff(dirs.write(base), dirs.write(proposed));

  it('identical blastRadius and noMuting rules: no run would be decided differently', async () => {
    const files = {
      'g.yaml': guard(
        '{ requireKeys: [k8s.namespace], forbidValues: { k8s.namespace: [kube-system] }, denyUnscoped: true }',
      ),
      'm.yaml': mutes(DATADOG + SILENCE),
    };
    const r = await pair(files, files);
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  it('a required key dropped: a predicate that does not pin it is newly allowed', async () => {
    const r = await pair(
      { 'g.yaml': guard('{ requireKeys: [k8s.cluster-name, k8s.namespace] }') },
      { 'g.yaml': guard('{ requireKeys: [k8s.cluster-name] }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const [w] = r.witnesses;
    expect(w.payload.execution.overrides?.environment ?? w.payload.execution.environment).toBe('production');
    // Every way pins the cluster (else the proposed set would deny too); one does not pin the namespace.
    expect(ways(w).every((p) => pinsKey(p, 'k8s.cluster-name').verdict === 'yes')).toBe(true);
    expect(ways(w).some((p) => pinsKey(p, 'k8s.namespace').verdict !== 'yes')).toBe(true);
  });

  it('a forbidden value removed: a predicate that selects it is newly allowed', async () => {
    const r = await pair(
      { 'g.yaml': guard('{ forbidValues: { k8s.namespace: [kube-system, payments] } }') },
      { 'g.yaml': guard('{ forbidValues: { k8s.namespace: [kube-system] } }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const [w] = r.witnesses;
    expect(ways(w).some((p) => admitsValue(p, 'k8s.namespace', 'payments').verdict === 'yes')).toBe(true);
    expect(ways(w).every((p) => admitsValue(p, 'k8s.namespace', 'kube-system').verdict === 'no')).toBe(true);
  });

  it('denyUnscoped turned on: a step whose predicate selects every target is newly denied', async () => {
    const r = await pair(
      { 'g.yaml': guard('{ forbidValues: { k8s.namespace: [kube-system] } }') },
      { 'g.yaml': guard('{ forbidValues: { k8s.namespace: [kube-system] }, denyUnscoped: true }') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    // No predicate, a way through it with no condition at all, or one only opaque parts (a query) make.
    expect(ways(r.witnesses[0]).some((p) => restricts(p).verdict !== 'yes')).toBe(true);
  });

  it('a mute removed: a step running that action is newly allowed', async () => {
    const r = await pair({ 'm.yaml': mutes(DATADOG + SILENCE) }, { 'm.yaml': mutes(SILENCE) });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(step(r.witnesses[0]).actionId?.toLowerCase()).toBe('com.steadybit.extension_datadog.monitor.downtime');
  });

  it("a mute's parameter glob narrowed: a step whose url only the old glob matches is newly allowed", async () => {
    const wide = SILENCE.replace('*/api/v*/silence*', '*silence*');
    const r = await pair(
      { 'm.yaml': mutes(wide) },
      { 'm.yaml': mutes(SILENCE.replace('*/api/v*/silence*', '*/api/v2/silences')) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const url = String(step(r.witnesses[0]).parameters?.url);
    expect(url).toMatch(/silence/i);
    expect(url).not.toMatch(/\/api\/v2\/silences$/i);
  });

  it("a mute's url glob narrowed to one it implies: no false unknown, the urls only the old glob matches", async () => {
    // Every url `*/api/v2/silences` matches, `*/api/v*/silence*` matches too: that combination is empty (record 0045).
    const r = await pair(
      { 'm.yaml': mutes(SILENCE) },
      { 'm.yaml': mutes(SILENCE.replace('*/api/v*/silence*', '*/api/v2/silences')) },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const url = String(step(r.witnesses[0]).parameters?.url);
    expect(url).toMatch(/\/api\/v.*silence/i);
    expect(url).not.toMatch(/\/api\/v2\/silences$/i);
  });

  it('a parameter both bounded and matched by a mute is unknown, never "no difference"', async () => {
    const bounded = 'kind: Policy\nname: bounded\nrules:\n  - parameters: { url: { max: 5 } }\n';
    const r = await pair(
      { 'b.yaml': bounded, 'm.yaml': mutes(SILENCE) },
      { 'b.yaml': bounded, 'm.yaml': mutes(SILENCE.replace('silence*', 'silences')) },
    );
    expect(r.unknown.join('\n')).toMatch(/param:url: parameter url is both compared with parameters bounds/);
  });
});

// The bundled guard's blastRadius rule changed is measured with the CLI (docs/decisions/0038): its
// policy's scope makes more classes than the search decides, as for its targetAttributes rule.
describe('diff: the bundled set with its noMuting rule loosened', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const read = (file: string) => readFileSync(join(BUNDLED, file), 'utf8');
  const loosened = (file: string, from: string | RegExp, to: string) => {
    const text = read(file);
    expect(text).toMatch(from);
    return dirs.bundledWith({ [file]: text.replace(from, to) });
  };
  const newlyAllowed = async (dir: string) => {
    const r = diffSets(setOf(BUNDLED), setOf(dir), NOW);
    const found = r.witnesses.filter((w) => w.kind === 'newly-allowed');
    expect(found).not.toHaveLength(0);
    for (const w of found) {
      expect(await evalWitness(BUNDLED, w)).toBe(false);
      expect(await evalWitness(dir, w)).toBe(true);
    }
    return found;
  };

  it('the bundled set against itself: no run would be decided differently', () => {
    const r = diffSets(setOf(BUNDLED), setOf(BUNDLED), NOW);
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  it('the Datadog mute removed: a step creating a downtime is newly allowed', async () => {
    const [w] = await newlyAllowed(
      loosened('no-muting.yaml', /\n {8}- what: a Datadog monitor downtime\n {10}actions: \[[^\]]+\]/, ''),
    );
    expect(step(w).actionId?.toLowerCase()).toBe('com.steadybit.extension_datadog.monitor.downtime');
  });
});

describe('prove: properties over blast-radius predicates', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const PROPERTY = `kind: PolicyProperty
name: namespaces-pinned-in-production
never:
  match: { environments: [production] }
  rules:
    - blastRadius: { requireKeys: [k8s.namespace], forbidValues: { k8s.namespace: [kube-system] } }
`;
  const prove = (guardSpec: string) => {
    const dir = dirs.write({ 'g.yaml': guard(guardSpec), 'ns.property.yaml': PROPERTY });
    const [result] = proveDir(dir);
    return { dir, result };
  };

  it('a guard that requires the namespace and forbids kube-system (and more) proves it', () => {
    const { result } = prove(
      '{ requireKeys: [k8s.cluster-name, k8s.namespace], forbidValues: { k8s.namespace: [kube-system, payments] }, denyUnscoped: true }',
    );
    expect(result).toMatchObject({ status: 'proven', relaxed: [] });
  });

  it('a guard that ignores unknown shapes has a counterexample: an opaque query, allowed by eval', async () => {
    const { dir, result } = prove(
      '{ requireKeys: [k8s.namespace], forbidValues: { k8s.namespace: [kube-system] }, onUnknownShape: ignore }',
    );
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect(ways(w).some((p) => pinsKey(p, 'k8s.namespace').verdict === 'unknown')).toBe(true);
    expect(await evalWitness(dir, w)).toBe(true);
  });

  it('a guard without kube-system forbidden has a counterexample that selects it, allowed by eval', async () => {
    const { dir, result } = prove('{ requireKeys: [k8s.namespace] }');
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect(ways(w).some((p) => admitsValue(p, 'k8s.namespace', 'kube-system').verdict === 'yes')).toBe(true);
    expect(await evalWitness(dir, w)).toBe(true);
  });
});
