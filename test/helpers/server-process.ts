import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..');

/** A free TCP port on 127.0.0.1 (asks the OS for one). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface ServerProcess {
  url: string;
  port: number;
  child: ChildProcess;
  /** Everything the process printed so far (stdout + stderr). */
  output(): string;
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  exited: Promise<number | null>;
}

export async function waitFor(check: () => Promise<boolean>, what: string, timeoutMs = 15000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check().catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting for ${what}`);
}

/**
 * Starts the built service (`node dist/main.js`, built by `npm test`'s pretest) on a free port
 * of 127.0.0.1 and waits until /readyz answers 200 (unless waitReady is false). `command` and
 * `args` start something else instead (another Node.js, or the service through a wrapper that
 * execs it, so the process is still the service's).
 */
export async function startServerProcess(
  env: Record<string, string> = {},
  opts: { waitReady?: boolean; args?: string[]; command?: string } = {},
): Promise<ServerProcess> {
  const port = await freePort();
  const child = spawn(opts.command ?? process.execPath, opts.args ?? [join(ROOT, 'dist', 'main.js')], {
    cwd: ROOT,
    env: { PATH: process.env.PATH, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = {
    url,
    port,
    child,
    exited,
    output: () => out,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
  if (opts.waitReady !== false) {
    let done = false;
    void exited.then(() => {
      done = true;
    });
    await waitFor(async () => {
      if (done) throw new Error(`server exited early:\n${out}`);
      const res = await fetch(`${url}/readyz`);
      return res.status === 200;
    }, `the server to be ready:\n${out}`).catch(async (err) => {
      await proc.stop('SIGKILL');
      throw err;
    });
  }
  return proc;
}
