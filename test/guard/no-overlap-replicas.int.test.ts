import type { WebhookPayload } from '../../src/payload/types';
import { waitFor } from '../helpers/server-process';
import { replicasOnRedis } from '../state/replicas-on-redis';
import { executionPayload } from '../state/state-events';
import { onHost, runOf } from '../helpers/runs-on-targets';

const SECRET = 'overlap-secret';
const replicas = replicasOnRedis(
  { 'no-overlap.yaml': 'kind: Policy\nname: one-run-per-host\nrules:\n  - noOverlap: {by: [host.hostname]}\n' },
  SECRET,
);
const { post } = replicas;
/** An event fired just now (the service checks its age against the real clock). */
const event = (p: WebhookPayload) => ({ ...p, time: new Date().toISOString().replace('Z', '000000Z') });
const preflight = runOf;
const start = (env: Record<string, string>) => replicas.start(env);

describe('noOverlap in the service (node dist/main.js), two replicas sharing one redis-server', () => {
  test('a run allowed at one replica denies an overlapping run at the other until its end event', async () => {
    const [a, b] = [await start({ REDIS_URL: replicas.redisUrl() }), await start({ REDIS_URL: replicas.redisUrl() })];
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

  test('overlapping runs sent to both replicas at the same moment: exactly one of each pair is allowed', async () => {
    const [a, b] = [await start({ REDIS_URL: replicas.redisUrl() }), await start({ REDIS_URL: replicas.redisUrl() })];
    const pairs = Array.from({ length: 20 }, (_, i) => i);
    const answers = await Promise.all(
      pairs.map((i) =>
        Promise.all([
          post(a, '/preflight', preflight(1000 + 2 * i, 'OPS', [onHost(`a-${i}`, `race-${i}`)])),
          post(b, '/preflight', preflight(1001 + 2 * i, 'ADM', [onHost(`b-${i}`, `race-${i}`)])),
        ]),
      ),
    );
    const allowedPerPair = answers.map((pair) => pair.filter((r) => r.status === 200).length);
    expect(allowedPerPair).toEqual(pairs.map(() => 1));
    for (const pair of answers)
      expect(pair.find((r) => r.status !== 200)?.message).toMatch(
        /a run in progress shares targets with this run: run 10\d\d/,
      );
  });
});
