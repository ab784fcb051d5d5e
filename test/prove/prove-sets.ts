import { cpSync, mkdtempSync, readdirSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand } from '../../src/cli/commands/eval-command';
import { decide } from '../../src/policy/engine/decide';
import { type DiffResult, diffSets, type PropertyResult, proveProperty, type Witness } from '../../src/prove/analysis';
import { readProperties } from '../../src/prove/property-file';
import { type PolicySet, readPolicySet } from '../../src/prove/policy-set';
import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { StateFacts } from '../../src/policy/facts/state-facts';
import { quietFacts } from '../../src/policy/facts/quiet-facts';

/** The repository's bundled policy set: the sets the known-answer tests change one rule of. */
export const BUNDLED = join(__dirname, '..', '..', 'policies');

/** Monday 2026-03-02 10:00 UTC: the time horizon of every analysis starts here (the clock is injected). */
export const NOW = new Date('2026-03-02T10:00:00Z');

/** Temporary policy directories, removed after the file's tests. */
export function setDirs() {
  const made: string[] = [];
  const write = (files: Record<string, string>, from?: string): string => {
    const dir = mkdtempSync(join(tmpdir(), 'prove-'));
    made.push(dir);
    if (from) cpSync(from, dir, { recursive: true });
    for (const [name, text] of Object.entries(files)) {
      if (text === '') unlinkSync(join(dir, name));
      else writeFileSync(join(dir, name), text);
    }
    return dir;
  };
  return {
    /** A directory of these files (a file given as '' is removed from the copy of `from`). */
    write,
    /** The bundled set with some files replaced, added ('' removes one). */
    bundledWith: (files: Record<string, string>) => write(files, BUNDLED),
    cleanup: () => {
      for (const dir of made) rmSync(dir, { recursive: true, force: true });
    },
  };
}

export const setOf = (dir: string, env: NodeJS.ProcessEnv = {}) => readPolicySet(dir, NOW, env);

/** Every property of `dir` proved against its policies, as `prove <dir>` at NOW. */
export function proveDir(dir: string, env: NodeJS.ProcessEnv = {}): PropertyResult[] {
  const set = setOf(dir, env);
  return readProperties(dir, set.aliases, NOW).properties.map((p) => proveProperty(set, p, NOW));
}

export const filesOf = (dir: string) => readdirSync(dir);

/** The witness decided by `eval --now --payload --state --signals --teams` in-process on `dir`: allowed or not. */
export async function evalWitness(dir: string, w: Witness): Promise<boolean> {
  const files = mkdtempSync(join(tmpdir(), 'prove-eval-'));
  try {
    const file = (name: string, value: unknown) => {
      writeFileSync(join(files, name), JSON.stringify(value));
      return join(files, name);
    };
    let out = '';
    await evalCommand(
      {
        dir,
        payload: file('payload.json', w.payload),
        now: w.now,
        state: file('state.json', w.facts.state),
        signals: file('signals.json', w.facts.signals),
        teams: file('teams.json', w.facts.teams),
        ...(w.facts.environments ? { environments: file('environments.json', w.facts.environments) } : {}),
        format: 'json',
      },
      {},
      (s) => {
        out += s;
      },
      () => {},
    );
    return (JSON.parse(out) as { allowed: boolean }).allowed;
  } finally {
    rmSync(files, { recursive: true, force: true });
  }
}

/**
 * Two sets written and diffed (`pair`), and `roundTrip`: eval, in-process, decides a witness on each
 * set's directory as the diff says the whole sets do.
 */
export function diffPairs(dirs: ReturnType<typeof setDirs>) {
  const pair = (base: Record<string, string>, proposed: Record<string, string>) => {
    const b = dirs.write(base);
    const p = dirs.write(proposed);
    return { b, p, r: diffSets(setOf(b), setOf(p), NOW) };
  };
  const roundTrip = async (b: string, p: string, w: Witness) => {
    expect([await evalWitness(b, w), await evalWitness(p, w)]).toEqual([w.base?.allowed, w.proposed?.allowed]);
  };
  return { pair, roundTrip };
}

/** The one sample value of a witness's answer to `query` on the default Prometheus source. */
export function sampleOf(w: Witness, query: string): string | undefined {
  const answer = w.facts.signals.prometheus?.default?.[query];
  return answer && 'resultType' in answer && answer.resultType === 'vector' ? answer.result[0]?.value[1] : undefined;
}

/** Every witness is decided by both whole sets as it says (the engine, not the analysis). */
export function expectDecided(r: DiffResult, base: PolicySet, proposed: PolicySet): void {
  for (const w of r.witnesses)
    for (const [set, answer] of [
      [base, w.base],
      [proposed, w.proposed],
    ] as const)
      expect(decide(set.bundle, w.payload, { ...w.facts }, new Date(w.now), { decisionId: 't' }).allowed).toBe(
        answer?.allowed,
      );
}

/**
 * diff against runs made without its classes: for the two sets, every sampled payload and state
 * (`stateOf` puts the sample into the quiet state both sets need) that they decide differently has
 * a witness of that kind among diff's, which finds nothing unknown.
 */
export function expectSampledKinds<S>(
  base: PolicySet,
  proposed: PolicySet,
  payloads: fc.Arbitrary<PreflightPayload>,
  samples: fc.Arbitrary<S>,
  stateOf: (quiet: StateFacts, sample: S) => StateFacts,
  numRuns: number,
): void {
  const diff = diffSets(base, proposed, NOW);
  expect(diff.unknown).toEqual([]);
  const kinds = new Set(diff.witnesses.map((w) => w.kind));
  const quiet = quietFacts([...base.bundle.needs, ...proposed.bundle.needs]);
  fc.assert(
    fc.property(payloads, samples, (payload, sample) => {
      const facts = { ...quiet, state: stateOf(quiet.state ?? {}, sample) };
      const b = decide(base.bundle, payload, facts, NOW, { decisionId: 't' }).allowed;
      const p = decide(proposed.bundle, payload, facts, NOW, { decisionId: 't' }).allowed;
      if (b !== p) expect(kinds.has(p ? 'newly-allowed' : 'newly-denied')).toBe(true);
    }),
    { numRuns, seed: 47 },
  );
}
