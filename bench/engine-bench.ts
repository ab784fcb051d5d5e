import { loadBundle } from '../src/policy/loading/load-bundle';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { decide } from '../src/policy/engine/decide';
import { buildPolicyIndex } from '../src/policy/engine/policy-index';
import type { PolicyBundle } from '../src/policy/core/compiled';
import type { Facts } from '../src/policy/facts/facts';
import { freshFacts } from '../test/helpers/policy-sets/fresh-facts';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import type { PayloadVariant } from './payload-variants';

export interface EngineFigures {
  // Rates are per CPU second of the benchmark process.
  policies: number;
  decisionsPerSecond: number;
  microsPerDecision: number;
  /** Policies a decision visited on average (the index's candidates). */
  visitedPerDecision: number;
  /** The same decisions visiting every policy (evaluate's fullScan: how it was before the index). */
  fullScanMicrosPerDecision: number;
}

export interface LoadTimeFigures {
  policies: number;
  files: number;
  loadMs: number;
  indexMs: number;
}

type Rate = Omit<EngineFigures, 'fullScanMicrosPerDecision'>;

function decideFor(
  bundle: PolicyBundle,
  variants: readonly PayloadVariant[],
  states: readonly Facts[],
  seconds: number,
  fullScan = false,
): Rate {
  let decisions = 0;
  let visited = 0;
  const deadline = process.hrtime.bigint() + BigInt(Math.round(seconds * 1e9));
  const cpuStart = process.cpuUsage();
  while (process.hrtime.bigint() < deadline) {
    // Check the clock every round of variants, not every decision.
    for (const [i, v] of variants.entries()) {
      visited += decide(bundle, v.payload, states[i], new Date(), { decisionId: 'bench', fullScan }).results.length;
      decisions++;
    }
  }
  // CPU time, not wall time: other processes on the machine do not count against the engine.
  const cpu = process.cpuUsage(cpuStart);
  const cpuSeconds = (cpu.user + cpu.system) / 1e6;
  return {
    policies: bundle.policies.length,
    decisionsPerSecond: decisions / cpuSeconds,
    microsPerDecision: (cpuSeconds * 1e6) / decisions,
    visitedPerDecision: visited / decisions,
  };
}

/**
 * evaluate() alone, in a loop over the variants, for each policy-set size (after a short warm-up);
 * per CPU second. State (for guardrails with memory) is loaded once per variant, outside the loop.
 */
export async function engineStage(
  sizes: readonly number[],
  kinds: readonly string[],
  variants: readonly PayloadVariant[],
  seconds: number,
): Promise<EngineFigures[]> {
  const out: EngineFigures[] = [];
  for (const size of sizes) {
    const result = loadBundle(generatePolicySet(size, kinds));
    if (!result.ok) throw new Error(`generated set of ${size} policies does not load: ${result.problems[0]?.message}`);
    const states = await freshFacts(result.bundle, variants);
    decideFor(result.bundle, variants, states, Math.min(0.3, seconds));
    const indexed = decideFor(result.bundle, variants, states, seconds);
    const full = decideFor(result.bundle, variants, states, seconds / 2, true);
    out.push({ ...indexed, fullScanMicrosPerDecision: full.microsPerDecision });
  }
  return out;
}

/** Read + parse + validate + compile + index a directory of policy files, as the server does at start. */
export function loadTime(dir: string, policies: number): LoadTimeFigures {
  const started = process.hrtime.bigint();
  const result = loadPolicyDir(dir);
  const loadMs = Number(process.hrtime.bigint() - started) / 1e6;
  if (!result.ok) throw new Error(`${dir} does not load: ${result.problems[0]?.message}`);
  const indexStarted = process.hrtime.bigint();
  // The index alone, rebuilt to time it (loadBundle already built one).
  buildPolicyIndex(result.bundle.policies);
  const indexMs = Number(process.hrtime.bigint() - indexStarted) / 1e6;
  return { policies, files: result.bundle.files.length, loadMs, indexMs };
}
