import type { HttpTargetFigures, MeasuredTarget } from './figures';

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

const total = (values: readonly number[]) => values.reduce((sum, v) => sum + v, 0);

function mergedStatuses(each: readonly MeasuredTarget[]): Record<string, number> {
  const out: Record<string, number> = {};
  for (const t of each) for (const [status, n] of Object.entries(t.statuses)) out[status] = (out[status] ?? 0) + n;
  return out;
}

/**
 * The HTTP stage's figures over its rounds. Each round measures the floor and then every target,
 * one after another, so a target's ratio to the floor is taken within its round: the host's speed
 * moves between rounds more than within one, and a fast or slow floor run alone took the same
 * code's single-round ratio anywhere from 0.60x to 0.96x (docs/performance.md). A ratio is the
 * median of the rounds' ratios, and every
 * round's ratios are kept (`throughputRatios`, `p99Ratios`) for the report. The other speed figures
 * are medians too. The counts the correctness lines read are summed, so a wrong answer in any round
 * fails its line, and a round without a single answer is counted (`roundsWithoutAnswers`): it
 * checked nothing, whatever the other rounds did. Peak RSS and steal are the highest of any round;
 * RSS after the run is the last round's. `rounds[r]` lists the same targets in the same order in
 * every round.
 */
export function combineRounds(rounds: ReadonlyArray<readonly MeasuredTarget[]>): HttpTargetFigures[] {
  if (rounds.length === 0) throw new Error('the HTTP stage measured no round');
  const first = rounds[0];
  const baseAt = Math.max(
    first.findIndex((t) => t.kind === 'floor'),
    0,
  );
  for (const [r, round] of rounds.entries()) {
    if (round.length !== first.length || round.some((t, i) => t.name !== first[i]?.name))
      throw new Error(`round ${r + 1} measured other targets than round 1`);
  }
  return first.map((target, i) => {
    const each = rounds.map((round) => round[i]);
    const bases = rounds.map((round) => round[baseAt]);
    const throughputRatios = each.map((t, r) => t.requestsPerSecond / bases[r].requestsPerSecond);
    const p99Ratios = each.map((t, r) => t.p99Ms / Math.max(bases[r].p99Ms, 1));
    const steal = each.flatMap((t) => (t.stealPercent === undefined ? [] : [t.stealPercent]));
    return {
      name: target.name,
      kind: target.kind,
      policies: target.policies,
      startupMs: median(each.map((t) => t.startupMs)),
      rssMb: each[each.length - 1].rssMb,
      peakRssMb: Math.max(...each.map((t) => t.peakRssMb)),
      requestsPerSecond: median(each.map((t) => t.requestsPerSecond)),
      p50Ms: median(each.map((t) => t.p50Ms)),
      p99Ms: median(each.map((t) => t.p99Ms)),
      cpuMicrosPerRequest: median(each.map((t) => t.cpuMicrosPerRequest)),
      coreUsePercent: median(each.map((t) => t.coreUsePercent)),
      stealPercent: steal.length === 0 ? undefined : Math.max(...steal),
      requests: total(each.map((t) => t.requests)),
      unexpected: total(each.map((t) => t.unexpected)),
      status5xx: total(each.map((t) => t.status5xx)),
      errors: total(each.map((t) => t.errors)),
      errorDecisions: total(each.map((t) => t.errorDecisions)),
      statuses: mergedStatuses(each),
      perPayload: target.perPayload.map((_, v) => total(each.map((t) => t.perPayload[v]))),
      roundsWithoutAnswers: each.filter((t) => t.requests === 0).length,
      throughputRatio: median(throughputRatios),
      throughputRatios,
      p99Ratio: median(p99Ratios),
      p99Ratios,
    };
  });
}
