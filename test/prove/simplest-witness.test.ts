import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { decide } from '../../src/policy/engine/decide';
import { diffSets, proveProperty, type Witness } from '../../src/prove/analysis';
import type { Run } from '../../src/prove/dimensions';
import { readProperties } from '../../src/prove/property-file';
import { BUNDLED, evalWitness, NOW, setDirs, setOf } from './prove-sets';

/**
 * Witnesses are the simplest payloads that show the difference (record 0045): no field the
 * difference does not need, no placeholder text of the analysis, a target count some targets are,
 * realistic ids; each still decided by eval with both sets as printed.
 */
const PLACEHOLDER = /prove-other|~prove/;

/** Whether both sets still decide the payload as the witness says. */
function stillDiffers(
  w: Witness,
  base: ReturnType<typeof setOf>,
  proposed: ReturnType<typeof setOf>,
  payload: unknown,
) {
  const run = { payload: payload as PreflightPayload, facts: w.facts as Run['facts'], now: new Date(w.now) };
  const allowed = (s: ReturnType<typeof setOf>) =>
    decide(s.bundle, run.payload, run.facts, run.now, { decisionId: 'test' }).allowed;
  return allowed(base) === w.base?.allowed && allowed(proposed) === w.proposed?.allowed;
}

/** The payload with one field of its step (or execution) removed. */
function without(payload: PreflightPayload, path: string[]): unknown {
  const copy = JSON.parse(JSON.stringify(payload)) as Record<string, unknown>;
  let at: Record<string, unknown> = copy;
  for (const k of path.slice(0, -1)) at = at[k] as Record<string, unknown>;
  delete at[path[path.length - 1]];
  return copy;
}

describe('diff: the simplest witness of a loosened cap', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const guardrails = readFileSync(join(BUNDLED, 'production-guardrails.yaml'), 'utf8');
  const proposedDir = dirs.bundledWith({
    'production-guardrails.yaml': guardrails.replace('maxPercentage: 25', 'maxPercentage: 30'),
  });
  const [base, proposed] = [setOf(BUNDLED), setOf(proposedDir)];
  const result = diffSets(base, proposed, NOW);
  const [w] = result.witnesses;

  it('is one newly allowed witness, decided by eval with both sets as printed', async () => {
    expect(result.witnesses.map((x) => x.kind)).toEqual(['newly-allowed']);
    expect(await evalWitness(BUNDLED, w)).toBe(false);
    expect(await evalWitness(proposedDir, w)).toBe(true);
  });

  it('carries no placeholder text, realistic ids and a count of targets some targets are', () => {
    const text = JSON.stringify([w.payload, w.facts, w.class]);
    expect(text).not.toMatch(PLACEHOLDER);
    const execution = w.payload.execution;
    const [step] = execution.steps ?? [];
    expect(step.actionId).toMatch(/^com\.steadybit\.extension_[a-z]+\.[a-z_-]+$/);
    expect(typeof execution.teamKey).toBe('string');
    expect(execution.experimentKey).toMatch(new RegExp(`^${execution.teamKey}-\\d+$`));
    expect(step.totalTargetCount).toBeGreaterThanOrEqual(1);
    // What the difference is about stays: 26% of the targets in production.
    expect(step.radius?.percentage).toBe(26);
    expect(execution.environment ?? execution.overrides?.environment).toBe('production');
  });

  it('has no field the difference does not need: removing any optional one decides it alike', () => {
    const [step] = w.payload.execution.steps ?? [];
    const optional: string[][] = [
      ...Object.keys(step.parameters ?? {}).map((k) => ['execution', 'steps', '0', 'parameters', k]),
      ...Object.keys(step.radius ?? {}).map((k) => ['execution', 'steps', '0', 'radius', k]),
      ...['experimentVersion', 'createdBy', 'overrides'].map((k) => ['execution', k]),
    ].filter((path) => path.reduce<unknown>((v, k) => (v as Record<string, unknown>)?.[k], w.payload) !== undefined);
    for (const path of optional)
      expect([path.join('.'), stillDiffers(w, base, proposed, without(w.payload, path))]).toEqual([
        path.join('.'),
        false,
      ]);
    expect(step.radius?.predicate).toBeUndefined();
    expect(step.parameters).toBeUndefined();
  });
});

describe('prove: the simplest counterexample', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);

  it('a property broken by a cap set too high: a plain run, allowed by eval, no placeholder', async () => {
    const property = `kind: PolicyProperty
name: no-production-step-over-a-fifth
never:
  match: { environments: [production] }
  rules:
    - targets: { maxPercentage: 20 }
`;
    const dir = dirs.bundledWith({ 'fifth.property.yaml': property });
    const set = setOf(dir);
    const { properties } = readProperties(dir, set.aliases, NOW);
    const r = proveProperty(set, properties.find((p) => p.name === 'no-production-step-over-a-fifth') as never, NOW);
    expect(r.status).toBe('counterexample');
    const w = r.witness as Witness;
    expect(await evalWitness(dir, w)).toBe(true);
    expect(JSON.stringify([w.payload, w.facts])).not.toMatch(PLACEHOLDER);
    const [step] = w.payload.execution.steps ?? [];
    expect(step.radius?.predicate).toBeUndefined();
    expect(step.parameters).toBeUndefined();
    expect(step.totalTargetCount).toBeGreaterThanOrEqual(1);
  });
});
