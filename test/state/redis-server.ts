import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../helpers/server-process';

/** A real redis-server on 127.0.0.1 (no persistence), stoppable and restartable on the same port. */
export interface TestRedis {
  port: number;
  url: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

function launch(port: number): Promise<ChildProcess> {
  const child = spawn('redis-server', ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'], { stdio: ['ignore', 'pipe', 'pipe'] });
  return new Promise((resolve, reject) => {
    let out = '';
    const onData = (d: Buffer) => {
      out += d.toString();
      if (out.includes('Ready to accept connections')) { child.stdout?.off('data', onData); resolve(child); }
    };
    child.stdout?.on('data', onData);
    child.once('error', reject);
    child.once('exit', (code) => reject(new Error(`redis-server exited with ${code}:\n${out}`)));
  });
}

export async function startRedis(): Promise<TestRedis> {
  const port = await freePort();
  let child: ChildProcess | undefined = await launch(port);
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async start() {
      if (!child) child = await launch(port);
    },
    async stop() {
      const running = child;
      child = undefined;
      if (!running || running.exitCode !== null) return;
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    },
  };
}
