import type { TargetLine } from './figures';
import type { GuardFigures } from './guard-stage';

/**
 * Issue 48 item 4: a tick over 1,000 runs in progress (10 targets each) kept in Redis costs under
 * 100 ms of CPU in the replica, for every policy set measured. Without redis-server the line says
 * why it was not measured, and fails in full mode (a target not measured is not met).
 */
export function checkGuardTargets(guard: readonly GuardFigures[], redisSkipped: string | undefined): TargetLine[] {
  const name = 'guard tick over 1,000 runs of 10 targets kept in Redis < 100 ms CPU';
  const inRedis = guard.filter((g) => g.store === 'Redis');
  if (inRedis.length === 0)
    return [{ name, pass: false, detail: `not measured: ${redisSkipped ?? 'no Redis figures'}`, correctness: false }];
  return inRedis.map((g) => ({
    name: `${name} (${g.set})`,
    pass: g.runs >= 1000 && g.cpuMsPerTick < 100,
    detail: `${g.cpuMsPerTick.toFixed(1)} ms CPU per tick over ${g.runs} runs (${g.cpuMicrosPerRun.toFixed(1)} us/run), longest loop hold ${g.maxLoopDelayMs.toFixed(1)} ms`,
    correctness: false,
  }));
}
