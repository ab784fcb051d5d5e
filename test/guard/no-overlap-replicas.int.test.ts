import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreflightPayload, Target, WebhookPayload } from '../../src/payload/types';
import { signedPost } from '../helpers/signed-post';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startRedis, type TestRedis } from '../state/redis-server';
import { executionPayload } from '../state/state-events';

const SECRET = 'overlap-secret';
const HOST = 'com.steadybit.extension_host.host';
let redis: TestRedis;
let dir: string;
const procs: ServerProcess[] = [];

async function post(proc: ServerProcess, path: string, body: object) {
  const res = await signedPost(`${proc.url}${path}`, body, SECRET);
  return { status: res.status, message: ((await res.json()) as { message: string }).message };
}
/** An event fired just now (the service checks its age against the real clock). */
const event = (p: WebhookPayload) => ({ ...p, time: new Date().toISOString().replace('Z', '000000Z') });
const onHost = (name: string, hostname: string): Target => ({
  type: HOST,
  name,
  attributes: [{ key: 'host.hostname', value: hostname }],
});
const preflight = (id: number, team: string, targets: Target[]): PreflightPayload =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.teamKey = team;
    p.execution.experimentKey = `${team}-${id}`;
    const step = p.execution.steps?.[1];
    if (step) {
      step.targetExecutions = targets;
      step.totalTargetCount = targets.length;
    }
  });
async function start(env: Record<string, string>) {
  const proc = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'false', WEBHOOK_SECRET: SECRET, ...env });
  procs.push(proc);
  return proc;
}

beforeAll(async () => {
  redis = await startRedis();
  dir = mkdtempSync(join(tmpdir(), 'pg-overlap-'));
  writeFileSync(
    join(dir, 'no-overlap.yaml'),
    'kind: Policy\nname: one-run-per-host\nrules:\n  - noOverlap: {by: [host.hostname]}\n',
  );
});
afterAll(async () => {
  await Promise.all(procs.map((p) => p.stop()));
  await redis.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('noOverlap in the service (node dist/main.js), two replicas sharing one redis-server', () => {
  test('a run allowed at one replica denies an overlapping run at the other until its end event', async () => {
    const [a, b] = [await start({ REDIS_URL: redis.url }), await start({ REDIS_URL: redis.url })];
    expect((await post(a, '/preflight', preflight(7, 'OPS', [onHost('web-1', 'node-a')]))).status).toBe(200);
    // Replica A keeps the run right after its answer; replica B reads it from Redis.
    const overlapping = preflight(8, 'ADM', [onHost('c-2', 'node-a')]);
    let denied = { status: 0, message: '' };
    await waitFor(async () => {
      denied = await post(b, '/preflight', overlapping);
      return denied.status === 403;
    }, 'replica B to see the run replica A allowed');
    expect(denied.message).toMatch(
      /\[one-run-per-host\] a run in progress shares targets with this run: run 7 \(experiment OPS-7, team OPS, since \S+\) on host\.hostname=node-a/,
    );
    expect((await post(b, '/preflight', preflight(9, 'ADM', [onHost('c-3', 'node-b')]))).status).toBe(200);

    expect((await post(b, '/events', event(executionPayload('completed', 7, { team: 'OPS' })))).status).toBe(202);
    expect(await post(a, '/preflight', overlapping)).toEqual({ status: 200, message: expect.any(String) });
  });
});
