import type { WebhookPayload } from '../../src/payload/types';
import { preflightWith } from '../helpers/fixtures';
import { startServerProcess } from '../helpers/server-process';
import { replicasOnRedis } from './replicas-on-redis';
import { executionPayload, engagedPayload } from './state-events';

const SECRET = 'process-secret';
const replicas = replicasOnRedis(
  {
    'one-at-a-time.yaml':
      'kind: Policy\nname: one-at-a-time\nrules:\n  - concurrency: {maxRunning: 1, per: environment}\n',
  },
  SECRET,
);
const { post } = replicas;
const now = () => new Date().toISOString().replace('Z', '000000Z');
/** An event fired just now (the service checks its age against the real clock). */
const event = (p: WebhookPayload) => ({ ...p, time: now() });
const preflight = (id: number, env: string) =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.environment = env;
  });
const start = (env: Record<string, string>) => replicas.start(env);

describe('the service (node dist/main.js) with guardrails with memory', () => {
  test('two processes with REDIS_URL share the state: events at one, decisions at the other', async () => {
    const [a, b] = [await start({ REDIS_URL: replicas.redisUrl() }), await start({ REDIS_URL: replicas.redisUrl() })];
    expect(await post(a, '/events', event(executionPayload('created', 7, { env: 'proc-env' })))).toEqual({
      status: 202,
      message: expect.stringContaining('recorded: execution 7 is running'),
    });
    expect(await post(b, '/preflight', preflight(8, 'proc-env'))).toEqual({
      status: 403,
      message: expect.stringContaining('[one-at-a-time] environment proc-env already has 1 running execution'),
    });
    expect((await post(b, '/events', engagedPayload(now(), 'jane'))).status).toBe(202);
    expect(await post(a, '/preflight', preflight(9, 'other-env'))).toEqual({
      status: 403,
      message: expect.stringContaining('[emergency-stop (built-in)] the emergency stop is engaged (by jane since'),
    });
    const ready = (await (await fetch(`${a.url}/readyz`)).json()) as { state: unknown };
    expect(ready.state).toEqual({ store: 'redis', available: true, onUnavailable: 'deny' });
  });

  test('without REDIS_URL the state is kept in memory, and the built-in emergency stop can be turned off', async () => {
    const proc = await start({ EMERGENCY_STOP_POLICY: 'off' });
    expect((await post(proc, '/events', engagedPayload(now()))).status).toBe(202);
    expect((await post(proc, '/preflight', preflight(9, 'other-env'))).status).toBe(200);
    const ready = (await (await fetch(`${proc.url}/readyz`)).json()) as { state: unknown };
    expect(ready.state).toEqual({
      store: 'memory',
      available: true,
      onUnavailable: 'deny',
      restart: expect.stringMatching(
        /^a restart forgets the emergency stop, the running runs and the cool-down and quota history/,
      ),
      exceptionUses: expect.stringMatching(/^not counted: an exception with maxUses does not waive/),
    });
  });

  test.each([
    ['STATE_UNAVAILABLE', 'maybe', 'STATE_UNAVAILABLE must be one of deny, allow, got "maybe"'],
    ['EMERGENCY_STOP_POLICY', 'warn', 'EMERGENCY_STOP_POLICY must be one of enforce, off, got "warn"'],
    ['REDIS_URL', 'localhost:6379', 'REDIS_URL must look like redis://host:6379/0'],
    ['EXECUTION_TTL_SECONDS', '10', 'EXECUTION_TTL_SECONDS must be a whole number from 60 to 604800, got "10"'],
  ])('a bad %s stops the start with a message naming it', async (name, value, message) => {
    const proc = await startServerProcess({ POLICY_DIR: replicas.policyDir(), [name]: value }, { waitReady: false });
    expect(await proc.exited).toBe(1);
    expect(proc.output()).toContain(message);
  });
});
