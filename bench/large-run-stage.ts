import type { LargeRunDecide, LargeRunParse } from './large-run-measures';
import { runChild } from './run-child';

export interface LargeRunFigures {
  /** The policy set: `bundled policies`, `1,000 generated`, ... */
  set: string;
  policies: number;
  /** Targets in the run's attack step, 15 attributes each. */
  targets: number;
  bodyBytes: number;
  /** What the route does before deciding: strict JSON parse and schema validation, CPU µs (measured in a process of its own). */
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
  /**
   * The floor, in the same rounds as the decisions: reading every target's attributes once, in ns per
   * target. Where it jumps between two sizes, the larger run no longer fits in the CPU's caches.
   */
  readNanosPerTarget: number;
}

/** The source that names bench/group-rule-set.ts's set to the child instead of a policy directory. */
export const GROUP_RULE_SET = 'perGroup';

/** A policy set of the stage: its name in the report, and a policy directory or GROUP_RULE_SET. */
export interface LargeRunSet {
  name: string;
  source: string;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

function rows<T>(stdout: string, key: string, fields: ReadonlyArray<keyof T>, label: string): T[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(stdout);
  } catch {
    throw new Error(`${label} printed no JSON: ${stdout.slice(0, 200)}`);
  }
  const list = (parsed as Record<string, unknown> | null)?.[key];
  if (!Array.isArray(list) || list.length === 0) throw new Error(`${label} printed no "${key}" figures`);
  for (const row of list) {
    const missing = fields.filter((f) => !isNumber((row as Record<string, unknown>)?.[f as string]));
    if (missing.length > 0) throw new Error(`${label} printed a row without ${missing.join(', ')}`);
  }
  return list as T[];
}

/** The parse child's figures, one per size; anything else fails with `label`. */
export const readParseFigures = (stdout: string, label: string): LargeRunParse[] =>
  rows<LargeRunParse>(stdout, 'parse', ['targets', 'bodyBytes', 'parseMicros', 'floorParseMicros'], label);

/** A decide child's figures: the set's size and one row per run size; anything else fails with `label`. */
export function readDecideFigures(stdout: string, label: string): { policies: number; decide: LargeRunDecide[] } {
  const decide = rows<LargeRunDecide>(
    stdout,
    'decide',
    ['targets', 'decideMicros', 'readMicros', 'visitedPerDecision'],
    label,
  );
  const policies = (JSON.parse(stdout) as { policies?: unknown }).policies;
  if (!isNumber(policies)) throw new Error(`${label} printed no policy count`);
  return { policies, decide };
}

/** One table row per size and set, sizes outer (as the report prints them), each with its size's parse figures. */
export function largeRunRows(
  parse: readonly LargeRunParse[],
  sets: ReadonlyArray<{ name: string; policies: number; decide: readonly LargeRunDecide[] }>,
): LargeRunFigures[] {
  return parse.flatMap((p) =>
    sets.map((set) => {
      const d = set.decide.find((r) => r.targets === p.targets);
      if (!d) throw new Error(`${set.name}: no decisions measured at ${p.targets} targets`);
      return {
        set: set.name,
        policies: set.policies,
        targets: p.targets,
        bodyBytes: p.bodyBytes,
        parseMicros: p.parseMicros,
        floorParseMicros: p.floorParseMicros,
        decideMicros: d.decideMicros,
        visitedPerDecision: d.visitedPerDecision,
        nanosPerTargetPolicy: (d.decideMicros * 1000) / (p.targets * Math.max(d.visitedPerDecision, 1)),
        readNanosPerTarget: (d.readMicros * 1000) / p.targets,
      };
    }),
  );
}

/**
 * Big runs (docs/decisions/0006-body-limit-for-large-runs.md): the benchmark's payload variants with
 * `sizes` containers in their attack step, every attribute sent, parsed and validated in a child
 * process of their own, then decided against each policy set, each set in a child process of its own
 * (`childScript`, bench/large-run-child.ts) that loads only that set and generates only its payloads:
 * in one process holding every set and payload, the GC of a long decision grew with all of them and
 * the linearity line read 1.21-1.60x on the same code. The cost must stay linear in targets x policies in scope.
 */
export function largeRunStage(
  sets: readonly LargeRunSet[],
  sizes: readonly number[],
  seconds: number,
  childScript: string,
): LargeRunFigures[] {
  const common = [sizes.join(','), String(seconds)];
  // --expose-gc: the child collects its payload generator's garbage before it measures (large-run-measures.ts).
  const node = ['--expose-gc'];
  const parse = readParseFigures(
    runChild(childScript, ['parse', ...common], 'big runs, parse', node),
    'big runs, parse',
  );
  const measured = sets.map((set) => {
    const label = `big runs, ${set.name} (${set.source})`;
    return {
      name: set.name,
      ...readDecideFigures(runChild(childScript, ['decide', set.source, ...common], label, node), label),
    };
  });
  return largeRunRows(parse, measured);
}
