import { parseStrictJson } from '../src/payload/parse-strict-json';
import { validatePreflightPayload } from '../src/payload/validate-payload';
import type { PreflightPayload } from '../src/payload/types';
import type { PolicyBundle } from '../src/policy/core/compiled';
import { decide } from '../src/policy/engine/decide';
import { largeRun } from '../test/helpers/large-run';
import { freshFacts } from '../test/helpers/policy-sets/fresh-facts';
import { examplePreflight } from '../test/helpers/policy-sets/bench-payloads';
import { payloadVariants } from './payload-variants';

/** The strict parse of one run size against its floor (bench/large-run-child.ts `parse`). */
export interface LargeRunParse {
  targets: number;
  bodyBytes: number;
  /** What the route does before deciding: strict JSON parse and schema validation, CPU µs. */
  parseMicros: number;
  /**
   * The floor, measured in the same rounds: plain `JSON.parse` and the same validation, as before
   * the strict parser (0ef176e); parseMicros / floorParseMicros is what strictness costs.
   */
  floorParseMicros: number;
}

/** The decisions of one run size against one policy set (bench/large-run-child.ts `decide`). */
export interface LargeRunDecide {
  targets: number;
  decideMicros: number;
  /**
   * The floor, measured in the same rounds: reading every target's attributes once (readEveryAttribute),
   * the least a decision about the targets does. Its cost per target shows where the run stops fitting
   * in the CPU's caches.
   */
  readMicros: number;
  /** Policies a decision visited on average (the policies in scope). */
  visitedPerDecision: number;
}

/**
 * A round lasts at least this share of a size's time (at least four rounds of each work fit), so
 * every round amortises the same share of GC: at 2,500 targets a 50 ms round held four strict
 * parses, and one major GC more or less in it moved the parse's ratio to its floor from 0.88x to
 * 1.66x between runs of one build; 250 ms rounds read 0.94-1.29x (Node 26.12.1, 4 runs each).
 */
const ROUND_SHARE = 1 / 8;

/**
 * CPU µs per call of each of `works` over `items`: rounds over every item, one work after the
 * other in each round (so that a busy moment of the machine meets all of them), until `seconds` of
 * wall time passed (at least three); the median round counts. A round passes over the items as
 * often as it takes to use ROUND_SHARE of `seconds`: a round of a few short calls either met a scavenge or
 * did not, so its median compared GC-free small runs with big runs that always pay for GC
 * (measured on a quiet machine: 1.45-1.66x "non-linear" at 10,000 targets with 2 ms rounds,
 * 0.9-1.1x with 50 ms rounds).
 */
function cpuMicrosEach<T>(items: readonly T[], seconds: number, works: ReadonlyArray<(item: T) => unknown>): number[] {
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const rounds: number[][] = works.map(() => []);
  const minRoundMicros = seconds * 1e6 * ROUND_SHARE;
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
      } while (used < minRoundMicros);
      rounds[i].push(used / calls);
    });
  }
  return rounds.map((r) => r.sort((a, b) => a - b)[Math.floor(r.length / 2)]);
}

/** The benchmark's payload variants with `size` containers in their attack step, every attribute sent (test/helpers/large-run.ts). */
const largeRunVariants = (size: number) => payloadVariants('large-run', largeRun(examplePreflight(), size));

/**
 * A fresh process measures the smallest size once more first, uncounted: its first rounds would
 * otherwise include the compilation of the code (the process of the benchmark had run it in earlier
 * stages), and a slow small run would hide a non-linear large one.
 */
const warmedUp = (sizes: readonly number[]) => [sizes[0], ...sizes];

/**
 * Collects the garbage of a size's set-up before its rounds: generating 10,000-target payloads (a
 * clone, JSON text and bytes each) leaves hundreds of MB that the collector, marking incrementally,
 * otherwise charged to many of the rounds that followed. Measured on the quiet machine: the
 * 10,000-generated set at 10,000 targets read 8.4-9.7 ms a decision without, 7.5-8.3 ms with.
 */
function settleHeap(): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('the big-run child needs node --expose-gc (bench/large-run-stage.ts starts it so)');
  gc();
}

/** Strict parse + validation of each run size, and its floor in the same rounds. */
export function measureLargeRunParse(sizes: readonly number[], seconds: number): LargeRunParse[] {
  return warmedUp(sizes)
    .map((size) => {
      const variants = largeRunVariants(size);
      settleHeap();
      const [parseMicros, floorParseMicros] = cpuMicrosEach(variants, seconds, [
        (v) => {
          const parsed = parseStrictJson(v.body);
          if (!parsed.ok || !validatePreflightPayload(parsed.value).ok)
            throw new Error(`the ${size}-target payload "${v.name}" is not a valid preflight payload`);
        },
        (v) => validatePreflightPayload(JSON.parse(v.body.toString('utf8'))),
      ]);
      return { targets: size, bodyBytes: variants[0].body.length, parseMicros, floorParseMicros };
    })
    .slice(1);
}

/** Keeps the floor's reads observable, so the compiler cannot drop them. */
let readSink = 0;

/** Reads the key and value of every attribute of every target of `payload` once. */
function readEveryAttribute(payload: PreflightPayload): void {
  for (const step of payload.execution.steps ?? [])
    for (const target of step.targetExecutions ?? [])
      for (const a of target.attributes ?? []) readSink += a.key.length + a.value.length;
}

/** The decisions of each run size against `bundle`, and their floor, one size's payloads generated at a time. */
export async function measureLargeRunDecisions(
  bundle: PolicyBundle,
  sizes: readonly number[],
  seconds: number,
): Promise<LargeRunDecide[]> {
  const out: LargeRunDecide[] = [];
  for (const size of warmedUp(sizes)) {
    const variants = largeRunVariants(size);
    const facts = await freshFacts(bundle, variants);
    let visited = 0;
    let decisions = 0;
    const cases = variants.map((v, i) => ({ payload: v.payload, facts: facts[i] }));
    settleHeap();
    const [decideMicros, readMicros] = cpuMicrosEach(cases, seconds, [
      (c) => {
        visited += decide(bundle, c.payload, c.facts, new Date(), { decisionId: 'bench-large' }).results.length;
        decisions++;
      },
      (c) => readEveryAttribute(c.payload),
    ]);
    out.push({ targets: size, decideMicros, readMicros, visitedPerDecision: visited / decisions });
  }
  if (readSink === 0) throw new Error('the big runs carry no attribute: the floor read nothing');
  return out.slice(1);
}
