import { spawn } from 'node:child_process';
import { ROOT } from './server-process';

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * A command run to its end without blocking the test's event loop (spawnSync would hold up the
 * servers and fakes it talks to), from the repository root unless `cwd` says otherwise; killed
 * (SIGKILL) if it outlasts `killAfterMs`.
 */
export function runAsync(
  cmd: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; killAfterMs?: number } = {},
): Promise<Run> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
    });
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
    });
    const timer =
      opts.killAfterMs === undefined ? undefined : setTimeout(() => child.kill('SIGKILL'), opts.killAfterMs);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
  });
}
