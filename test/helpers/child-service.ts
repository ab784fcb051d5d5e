import { spawn, type SpawnOptions } from 'node:child_process';
import { rmSync } from 'node:fs';
import { waitFor } from './server-process';

/** A server process a test started, its output collected; stop() ends it and removes its temp dir. */
export interface ChildService {
  log(): string;
  stop(): Promise<void>;
}

export interface ChildServiceOptions {
  command: string;
  args: string[];
  /** The temp dir holding its configuration and storage: removed by stop(). */
  dir: string;
  spawn?: Pick<SpawnOptions, 'cwd' | 'env'>;
  /** What it is, for the timeout's message (`verdaccio on http://...`). */
  what: string;
  /** True once it answers. */
  ready: () => Promise<boolean>;
  timeoutMs?: number;
}

/**
 * Spawns a server (a local registry, ...) and waits until `ready()` answers true. When it does not
 * (a timeout, or the process exited), the process is stopped and the error names it with its output.
 */
export async function startChildService(opts: ChildServiceOptions): Promise<ChildService> {
  const child = spawn(opts.command, opts.args, { ...opts.spawn, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const collect = (d: Buffer) => {
    out += d.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(opts.dir, { recursive: true, force: true });
  };
  try {
    await waitFor(
      async () => {
        if (child.exitCode !== null) throw new Error(`${opts.command} exited (${child.exitCode}):\n${out}`);
        return opts.ready();
      },
      opts.what,
      opts.timeoutMs,
    );
  } catch (err) {
    await stop();
    throw new Error(`${(err as Error).message}:\n${out}`);
  }
  return { log: () => out, stop };
}
