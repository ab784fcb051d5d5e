import { spawnSync } from 'node:child_process';

/**
 * Runs `node ...nodeArgs <script> ...args` to its end and returns its stdout; a child that exits
 * non-zero, is killed or prints nothing fails the benchmark with `label`, its exit and the end of its stderr.
 */
export function runChild(
  script: string,
  args: readonly string[],
  label: string,
  nodeArgs: readonly string[] = [],
): string {
  const child = spawnSync(process.execPath, [...nodeArgs, script, ...args], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 ** 2,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const exit = child.error
    ? child.error.message
    : child.signal
      ? `killed by ${child.signal}`
      : `exit code ${child.status}`;
  if (child.error || child.status !== 0 || child.stdout.trim() === '') {
    const stderr = (child.stderr ?? '').trim().split('\n').slice(-10).join('\n');
    throw new Error(
      `${label} failed (${exit}${child.status === 0 ? ', nothing on stdout' : ''}): ${stderr || 'no stderr'}`,
    );
  }
  return child.stdout;
}
