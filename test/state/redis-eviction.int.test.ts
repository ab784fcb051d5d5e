import { join } from 'node:path';
import Redis from 'ioredis';
import { ROOT, startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';
import { startRedis, type TestRedis } from './redis-server';

// The built service on a real redis-server: a Redis that may evict what the gate keeps is said
// in /readyz and in the log, and one that cannot is not.

let redis: TestRedis;
let gate: ServerProcess | undefined;
beforeAll(async () => {
  redis = await startRedis();
});
afterEach(async () => {
  await gate?.stop();
  gate = undefined;
});
afterAll(() => redis.destroy());

const POLICIES = join(ROOT, 'policies');
const readyState = async (proc: ServerProcess) =>
  ((await (await fetch(`${proc.url}/readyz`)).json()) as { state: Record<string, unknown> }).state;

async function started(): Promise<ServerProcess> {
  const proc = await startServerProcess({ POLICY_DIR: POLICIES, REDIS_URL: redis.url, AUDIT_LOG: 'off' });
  await waitFor(async () => (await readyState(proc)).available === true, 'the state store to be reachable');
  return proc;
}

test('maxmemory with allkeys-lru: /readyz state.eviction and a warning say what it drops and what to set', async () => {
  await redis.cli('CONFIG', 'SET', 'maxmemory', '100mb');
  await redis.cli('CONFIG', 'SET', 'maxmemory-policy', 'allkeys-lru');
  gate = await started();
  const proc = gate;
  await waitFor(async () => typeof (await readyState(proc)).eviction === 'string', 'the eviction to be read');
  const said =
    'Redis evicts keys when full (maxmemory 104857600 bytes, maxmemory-policy allkeys-lru): a run record, exception use count or guarded run it evicts is forgotten, and runs it would have denied are allowed. Set maxmemory-policy noeviction';
  expect(await readyState(proc)).toEqual(
    expect.objectContaining({ store: 'redis', eviction: expect.stringContaining(said) }),
  );
  expect(proc.output()).toContain(`state: ${said}`);
});

test('noeviction: nothing said, after the gate has read it', async () => {
  await redis.cli('CONFIG', 'SET', 'maxmemory', '100mb');
  await redis.cli('CONFIG', 'SET', 'maxmemory-policy', 'noeviction');
  // The slow log with a threshold of 0 keeps every command: it shows the gate's own INFO memory.
  // It is read with a client of the test's own (not redis-cli, whose output of 10,000 entries can
  // exceed what execFile buffers), and each entry's arguments are compared, not its printed text.
  await redis.cli('CONFIG', 'SET', 'slowlog-log-slower-than', '0');
  await redis.cli('CONFIG', 'SET', 'slowlog-max-len', '10000');
  await redis.cli('SLOWLOG', 'RESET');
  const reader = new Redis(redis.url, { lazyConnect: true, maxRetriesPerRequest: 1 });
  const entries = async () => (await reader.call('SLOWLOG', 'GET', '10000')) as [number, number, number, string[]][];
  const readInfoMemory = async () =>
    (await entries()).some(([, , , args]) => args.map((a) => a.toLowerCase()).join(' ') === 'info memory');
  try {
    await reader.connect();
    gate = await started();
    const proc = gate;
    await waitFor(readInfoMemory, 'the gate to read INFO memory').catch(async (err: Error) => {
      // What the slow log held instead, and what the gate said: the reason when this fails.
      const seen = (await entries().catch(() => [])).map(([, , , args]) => args.slice(0, 3).join(' '));
      throw new Error(
        `${err.message}; the slow log had ${seen.length} entries (newest first: ${seen.slice(0, 20).join(' | ')}); the gate said:\n${proc.output()}`,
      );
    });
    expect((await readyState(gate)).eviction).toBeUndefined();
    expect(gate.output()).not.toContain('Redis evicts keys');
  } finally {
    reader.disconnect();
    await redis.cli('CONFIG', 'SET', 'slowlog-log-slower-than', '10000');
  }
});
