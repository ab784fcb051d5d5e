import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { signedPost } from '../helpers/signed-post';
import { startServerProcess, type ServerProcess } from '../helpers/server-process';
import { startRedis, type TestRedis } from './redis-server';

/**
 * For one test file: a redis-server and a policy directory holding `files`, started before its
 * tests and removed after them with every service process `start` began (node dist/main.js,
 * signed with `secret`, the watcher off). The replicas share state when given `REDIS_URL: redisUrl()`.
 */
export function replicasOnRedis(files: Record<string, string>, secret: string) {
  let redis: TestRedis;
  let dir: string;
  const procs: ServerProcess[] = [];
  beforeAll(async () => {
    redis = await startRedis();
    dir = mkdtempSync(join(tmpdir(), 'pg-replicas-'));
    for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  });
  afterAll(async () => {
    await Promise.all(procs.map((p) => p.stop()));
    await redis.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  return {
    redisUrl: () => redis.url,
    policyDir: () => dir,
    async start(env: Record<string, string>): Promise<ServerProcess> {
      const proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: secret, ...env });
      procs.push(proc);
      return proc;
    },
    /** A signed POST to one replica: its status and message. */
    async post(proc: ServerProcess, path: string, body: object) {
      const res = await signedPost(`${proc.url}${path}`, body, secret);
      return { status: res.status, message: ((await res.json()) as { message: string }).message };
    },
  };
}
