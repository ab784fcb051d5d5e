import { readFileSync } from 'node:fs';

/** The machine's CPU time counters (all CPUs, in clock ticks) from the `cpu` line of /proc/stat. */
export interface CpuTimes {
  total: number;
  steal: number;
}

/**
 * Parses the aggregate `cpu` line of /proc/stat: user nice system idle iowait irq softirq steal
 * guest guest_nice. Guest time is already counted in user and nice, so it is left out of the total.
 * Undefined when the text has no such line (not Linux, or an unexpected format).
 */
export function parseCpuTimes(procStat: string): CpuTimes | undefined {
  const line = procStat.split('\n').find((l) => l.startsWith('cpu '));
  if (!line) return undefined;
  const fields = line.trim().split(/\s+/).slice(1, 9).map(Number);
  if (fields.length < 8 || fields.some((n) => !Number.isFinite(n))) return undefined;
  return { total: fields.reduce((a, b) => a + b, 0), steal: fields[7] };
}

export function readCpuTimes(): CpuTimes | undefined {
  try {
    return parseCpuTimes(readFileSync('/proc/stat', 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * The share of the machine's CPU time the hypervisor gave to other guests between two readings
 * (steal), in percent: a virtual machine's measure of noisy neighbours. Undefined when unknown.
 */
export function stealPercent(before: CpuTimes | undefined, after: CpuTimes | undefined): number | undefined {
  if (!before || !after) return undefined;
  const total = after.total - before.total;
  return total > 0 ? (100 * (after.steal - before.steal)) / total : undefined;
}
