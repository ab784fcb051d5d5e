import autocannon from 'autocannon';
import { readCpuTimes, stealPercent } from './cpu-steal';
import type { PayloadVariant } from './payload-variants';

export interface LoadSettings {
  connections: number;
  warmupSeconds: number;
  seconds: number;
}

export interface LoadFigures {
  requestsPerSecond: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** CPU time the target process spent per answered request in the measured run (robust to other load). */
  cpuMicrosPerRequest: number;
  /** The target's CPU time over the measured run's wall-clock length, in percent: under ~100 at full load means it was held back. */
  coreUsePercent: number;
  /** Steal during the measured run (% of the machine's CPU time given to other guests); undefined off Linux. */
  stealPercent: number | undefined;
  /** Answers whose status is not the one expected for their payload (5xx included). */
  unexpected: number;
  status5xx: number;
  /** Connection errors and timeouts. */
  errors: number;
  statuses: Record<string, number>;
  /** Answers per payload variant (warm-up included). */
  perPayload: number[];
}

interface Tally {
  unexpected: number;
  status5xx: number;
  statuses: Record<string, number>;
  perPayload: number[];
}

function requestsFor(variants: readonly PayloadVariant[], expected: readonly number[], tally: Tally) {
  return variants.map((v, i) => ({
    method: 'POST',
    path: '/preflight',
    headers: { 'content-type': 'application/json', 'x-sb-signature': v.signature },
    body: v.body,
    onResponse: (status: number) => {
      tally.statuses[status] = (tally.statuses[status] ?? 0) + 1;
      tally.perPayload[i]++;
      if (status >= 500) tally.status5xx++;
      if (status !== expected[i]) tally.unexpected++;
    },
  }));
}

/**
 * Sends the signed variants round-robin from `connections` connections: a warm-up (answers checked,
 * figures dropped), then the measured run. Every answer's status is checked against `expected`.
 */
export async function runLoad(
  url: string,
  variants: readonly PayloadVariant[],
  expected: readonly number[],
  settings: LoadSettings,
  targetCpuSeconds: () => number,
): Promise<LoadFigures> {
  const tally: Tally = { unexpected: 0, status5xx: 0, statuses: {}, perPayload: variants.map(() => 0) };
  const base = {
    url,
    connections: settings.connections,
    pipelining: 1,
    timeout: 10,
    requests: requestsFor(variants, expected, tally),
  };
  const warm = await autocannon({ ...base, duration: settings.warmupSeconds });
  const cpuBefore = targetCpuSeconds();
  const machineBefore = readCpuTimes();
  const started = performance.now();
  const result = await autocannon({ ...base, duration: settings.seconds });
  // The run's own length, not the asked duration: autocannon may end it a little later.
  const wallSeconds = (performance.now() - started) / 1000;
  const cpu = targetCpuSeconds() - cpuBefore;
  const steal = stealPercent(machineBefore, readCpuTimes());
  return {
    requestsPerSecond: result.requests.average,
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    cpuMicrosPerRequest: (cpu * 1e6) / Math.max(result.requests.total, 1),
    coreUsePercent: (100 * cpu) / wallSeconds,
    stealPercent: steal,
    unexpected: tally.unexpected,
    status5xx: tally.status5xx,
    errors: warm.errors + warm.timeouts + result.errors + result.timeouts,
    statuses: tally.statuses,
    perPayload: tally.perPayload,
  };
}
