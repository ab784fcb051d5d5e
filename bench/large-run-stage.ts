import { parseStrictJson } from '../src/payload/parse-strict-json';
import { validatePreflightPayload } from '../src/payload/validate-payload';
import type { PolicyBundle } from '../src/policy/core/compiled';
import { decide } from '../src/policy/engine/decide';
import { largeRun } from '../test/helpers/large-run';
import { freshFacts } from '../test/helpers/policy-sets/fresh-facts';
import { examplePreflight } from '../test/helpers/policy-sets/bench-payloads';
import { payloadVariants } from './payload-variants';

export interface LargeRunFigures {
  /** The policy set: `bundled policies`, `1,000 generated`, ... */
  set: string;
  policies: number;
  /** Targets in the run's attack step, 15 attributes each. */
  targets: number;
  bodyBytes: number;
  /** What the route does before deciding: strict JSON parse and schema validation, CPU µs. */
  parseMicros: number;
  /**
   * The floor, measured in the same rounds: plain `JSON.parse` and the same validation, as before
   * the strict parser (0ef176e); parseMicros / floorParseMicros is what strictness costs.
   */
  floorParseMicros: number;
  decideMicros: number;
  /** Policies a decision visited on average (the policies in scope). */
  visitedPerDecision: number;
  /** decideMicros per target per policy visited, in ns: flat when the cost is linear in both. */
  nanosPerTargetPolicy: number;
}

/** A round lasts at least this much CPU time, so every round amortises the same share of GC. */
const MIN_ROUND_MICROS = 50_000;

/**
 * CPU µs per call of each of `works` over `items`: rounds over every item, one work after the
 * other in each round (so that a busy moment of the machine meets all of them), until `seconds` of
 * wall time passed (at least three); the median round counts. A round passes over the items as
 * often as it takes to use MIN_ROUND_MICROS: a round of a few short calls either met a scavenge or
 * did not, so its median compared GC-free small runs with big runs that always pay for GC
 * (measured on a quiet machine: 1.45-1.66x "non-linear" at 10,000 targets with 2 ms rounds,
 * 0.9-1.1x with 50 ms rounds).
 */
function cpuMicrosEach<T>(items: readonly T[], seconds: number, works: ReadonlyArray<(item: T) => unknown>): number[] {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const rounds: number[][] = works.map(() => []);
  while (rounds[0].length < 3 || process.hrtime.bigint() < deadline) {
    works.forEach((work, i) => {
      const start = process.cpuUsage();
      let calls = 0;
      let used = 0;
      do {
        for (const item of items) work(item);
        calls += items.length;
        const cpu = process.cpuUsage(start);
        used = cpu.user + cpu.system;
      } while (used < MIN_ROUND_MICROS);
      rounds[i].push(used / calls);
    });
  }
  return rounds.map((r) => r.sort((a, b) => a - b)[Math.floor(r.length / 2)]);
}

const cpuMicros = <T>(items: readonly T[], seconds: number, work: (item: T) => unknown): number =>
  cpuMicrosEach(items, seconds, [work])[0];

/**
 * Big runs (docs/decisions/0006-body-limit-for-large-runs.md): the benchmark's payload variants with `targets` containers in their
 * attack step, every attribute sent (test/helpers/large-run.ts), parsed, validated and decided
 * in-process against each policy set. The cost must stay linear in targets x policies in scope.
 */
export async function largeRunStage(
  sets: ReadonlyArray<{ name: string; bundle: PolicyBundle }>,
  sizes: readonly number[],
  seconds: number,
): Promise<LargeRunFigures[]> {
  const out: LargeRunFigures[] = [];
  for (const size of sizes) {
    const variants = payloadVariants('large-run', largeRun(examplePreflight(), size));
    const [parseMicros, floorParseMicros] = cpuMicrosEach(variants, seconds, [
      (v) => {
        const parsed = parseStrictJson(v.body);
        if (!parsed.ok || !validatePreflightPayload(parsed.value).ok)
          throw new Error(`the ${size}-target payload "${v.name}" is not a valid preflight payload`);
      },
      (v) => validatePreflightPayload(JSON.parse(v.body.toString('utf8'))),
    ]);
    for (const { name, bundle } of sets) {
      const facts = await freshFacts(bundle, variants);
      let visited = 0;
      let decisions = 0;
      const cases = variants.map((v, i) => ({ payload: v.payload, facts: facts[i] }));
      const decideMicros = cpuMicros(cases, seconds, (c) => {
        visited += decide(bundle, c.payload, c.facts, new Date(), { decisionId: 'bench-large' }).results.length;
        decisions++;
      });
      const visitedPerDecision = visited / decisions;
      out.push({
        set: name,
        policies: bundle.policies.length,
        targets: size,
        bodyBytes: variants[0].body.length,
        parseMicros,
        floorParseMicros,
        decideMicros,
        visitedPerDecision,
        nanosPerTargetPolicy: (decideMicros * 1000) / (size * Math.max(visitedPerDecision, 1)),
      });
    }
  }
  return out;
}
