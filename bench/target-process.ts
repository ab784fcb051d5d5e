import { execFileSync, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { freePort } from '../test/helpers/server-process';

export interface TargetProcess {
  url: string;
  pid: number;
  /** Milliseconds from spawn until the target answered its readiness probe. */
  startupMs: number;
  /** Resident and peak resident memory of the process, in MB (/proc/<pid>/status). */
  memory(): { rssMb: number; peakRssMb: number };
  /** CPU seconds (user + system) the process has used so far (/proc/<pid>/stat). */
  cpuSeconds(): number;
  output(): string;
  stop(): Promise<void>;
}

function statusKb(pid: number, field: string): number {
  const line = readFileSync(`/proc/${pid}/status`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  if (!line) throw new Error(`/proc/${pid}/status has no ${field}`);
  return Number(line.replace(/\D+/g, ''));
}

const CLOCK_TICKS = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;

function cpuSeconds(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the command name "(...)": state is field 3, utime 14, stime 15.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/**
 * Starts `node <script>` as its own process on a free loopback port (stdout, the audit log, goes to
 * /dev/null) and waits until `ready(url)` is true.
 */
export async function startTarget(
  script: string,
  env: Record<string, string>,
  ready: (url: string) => Promise<boolean>,
  nodeArgs: string[] = [],
  wrap?: (command: string, args: readonly string[]) => { command: string; args: string[] },
): Promise<TargetProcess> {
  const port = await freePort();
  const started = Date.now();
  // `wrap`: started through something that execs node (a memory cgroup's joiner): the same process.
  const launch = (wrap ?? ((command, args) => ({ command, args: [...args] })))(process.execPath, [...nodeArgs, script]);
  const child = spawn(launch.command, launch.args, {
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  while (!(await ready(url).catch(() => false))) {
    if (child.exitCode !== null) throw new Error(`${script} exited with ${child.exitCode}:\n${err}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${script} was not ready within 120 s:\n${err}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  const startupMs = Date.now() - started;
  const pid = child.pid as number;
  return {
    url,
    pid,
    startupMs,
    memory: () => ({ rssMb: statusKb(pid, 'VmRSS') / 1024, peakRssMb: statusKb(pid, 'VmHWM') / 1024 }),
    cpuSeconds: () => cpuSeconds(pid),
    output: () => err,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
