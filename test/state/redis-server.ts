import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import type { RedisConfig } from '../../src/state/redis-config';
import { freePort } from '../helpers/server-process';

/** How a store reaches a test topology; the key prefix is the test's. */
export type RedisConnection = Omit<RedisConfig, 'keyPrefix'>;

/** One redis-server (or sentinel) process on 127.0.0.1, stoppable and restartable on the same port. */
export interface RedisNode {
  port: number;
  start(): Promise<void>;
  /** SIGTERM (a clean shutdown) or SIGKILL (a crash: nothing is flushed beyond what fsync wrote). */
  stop(signal?: NodeJS.Signals): Promise<void>;
  /** redis-cli against this node; resolves with its output. */
  cli(...args: string[]): Promise<string>;
}

const run = promisify(execFile);

/** AOF with fsync before every reply: what the failover tests assume Redis promises (docs/state.md). */
export const AOF_ALWAYS = ['--appendonly', 'yes', '--appendfsync', 'always', '--save', ''];
export const NO_PERSISTENCE = ['--appendonly', 'no', '--save', ''];

function launch(args: string[], ready: string): Promise<ChildProcess> {
  const child = spawn('redis-server', args, { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes(ready)) {
        child.stdout?.off('data', onData);
        resolve(child);
      }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server ${args.join(' ')} exited with ${code}:\n${out}`)));
  });
}

/** Attempts at a free port: another process may take the one freePort() found before redis binds it. */
const PORT_ATTEMPTS = 5;

/**
 * Starts redis-server with `args` (after `config`, a file for sentinels) on a free port; `ready`
 * is the log line that says it is up. `args` may be a function of the port (a TLS-only node names
 * it as --tls-port). freePort() only finds a port that was free a moment ago: on a busy machine
 * (parallel test runs) another process can bind it first, and redis-server exits with "Address
 * already in use"; then another port is tried, unless opts.port pins one (a restart on the same port).
 */
export async function redisNode(
  args: string[] | ((port: number) => string[]),
  opts: { port?: number; config?: string; ready?: string } = {},
): Promise<RedisNode> {
  const ready = opts.ready ?? 'Ready to accept connections';
  const argvFor = (p: number) => [
    ...(opts.config ? [opts.config] : []),
    '--port',
    String(p),
    '--bind',
    '127.0.0.1',
    ...(typeof args === 'function' ? args(p) : args),
  ];
  let port = opts.port ?? (await freePort());
  let child: ChildProcess | undefined;
  for (let attempt = 1; !child; attempt++) {
    try {
      child = await launch(argvFor(port), ready);
    } catch (err) {
      if (opts.port !== undefined || attempt >= PORT_ATTEMPTS || !/Address already in use/.test(String(err))) throw err;
      port = await freePort();
    }
  }
  const argv = argvFor(port);
  return {
    port,
    async start() {
      if (!child) child = await launch(argv, ready);
    },
    async stop(signal = 'SIGTERM') {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null || running.signalCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill(signal);
      await exited;
    },
    async cli(...cmd: string[]) {
      return (await run('redis-cli', ['-h', '127.0.0.1', '-p', String(port), ...cmd])).stdout.trim();
    },
  };
}

export interface TestRedis extends RedisNode {
  url: string;
  connection: RedisConnection;
  /** Stops the server and removes its data directory (the end of a test file). */
  destroy(): Promise<void>;
}

/** A standalone redis-server: no persistence (fast), or `aof` (AOF, fsync always) in a temp dir removed on stop. */
export async function startRedis(opts: { aof?: boolean } = {}): Promise<TestRedis> {
  const dir = opts.aof ? mkdtempSync(join(tmpdir(), 'pg-redis-')) : undefined;
  const node = await redisNode(dir ? [...AOF_ALWAYS, '--dir', dir] : NO_PERSISTENCE);
  const url = `redis://127.0.0.1:${node.port}`;
  return {
    ...node,
    url,
    connection: { topology: { kind: 'standalone', url }, waitReplicas: 0 },
    async destroy() {
      await node.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}
