import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseRedisConfig } from '../../src/state/redis-config';
import { RedisStateStore } from '../../src/state/redis-state-store';
import { waitFor } from '../helpers/server-process';
import { testCertificates } from '../helpers/test-certificates';
import { NO_PERSISTENCE, redisNode, type RedisNode } from './redis-server';
import { created, T0 } from './state-events';
import { TIMING } from './store-table';

let dir: string;
let redis: RedisNode;
let port: number;
const stores: RedisStateStore[] = [];

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'pg-redis-tls-'));
  testCertificates(dir);
  // TLS only (no plain port), the default user off, an ACL user `gate`.
  redis = await redisNode((tlsPort) => [
    ...NO_PERSISTENCE,
    '--port',
    '0',
    '--tls-port',
    String(tlsPort),
    '--tls-cert-file',
    join(dir, 'server.crt'),
    '--tls-key-file',
    join(dir, 'server.key'),
    '--tls-ca-cert-file',
    join(dir, 'ca.crt'),
    '--tls-auth-clients',
    'no',
    '--user',
    'default',
    'off',
    '--user',
    'gate',
    'on',
    '>s3cret',
    '~*',
    '&*',
    '+@all',
  ]);
  port = redis.port;
}, 30_000);
afterAll(async () => {
  await Promise.all(stores.map((s) => s.close()));
  await redis?.stop();
  rmSync(dir, { recursive: true, force: true });
});

function store(env: Record<string, string>): RedisStateStore {
  const config = parseRedisConfig({
    REDIS_URL: `rediss://127.0.0.1:${port}`,
    REDIS_KEY_PREFIX: `tls${process.pid}:`,
    ...env,
  });
  if (!config) throw new Error('no Redis configured');
  const s = new RedisStateStore({ ...TIMING, redis: config, timeoutMs: 5000 });
  stores.push(s);
  return s;
}

describe('Redis over TLS with an ACL user', () => {
  test('rediss:// with REDIS_TLS_CA_FILE, REDIS_USERNAME and REDIS_PASSWORD: state is kept', async () => {
    const s = store({ REDIS_TLS_CA_FILE: join(dir, 'ca.crt'), REDIS_USERNAME: 'gate', REDIS_PASSWORD: 's3cret' });
    await waitFor(async () => s.health().available, 'the TLS connection');
    expect(await s.apply(created(1), new Date(T0))).toBe('applied');
    const view = await s.read({ emergencyStop: false, running: true, scopes: ['team:adm'] }, new Date(T0));
    expect(view.running?.['team:adm'].map((r) => r.id)).toEqual(['1']);
  });

  test.each<[string, (ca: string) => Record<string, string>, RegExp]>([
    [
      'a server certificate no trusted CA signed (no REDIS_TLS_CA_FILE)',
      () => ({ REDIS_USERNAME: 'gate', REDIS_PASSWORD: 's3cret' }),
      /TLS handshake with Redis failed: .+ \(is the server's certificate signed by the CA in REDIS_TLS_CA_FILE/,
    ],
    [
      'a wrong password',
      (ca) => ({ REDIS_TLS_CA_FILE: ca, REDIS_USERNAME: 'gate', REDIS_PASSWORD: 'wrong' }),
      /WRONGPASS|invalid username-password/i,
    ],
  ])('%s: unavailable, and the message says why', async (_name, env, reason) => {
    const s = store(env(join(dir, 'ca.crt')));
    await waitFor(
      async () => reason.test(s.health().message ?? ''),
      `the refusal to show in the store's health (${s.health().message})`,
    );
    expect(s.health().available).toBe(false);
    await expect(s.apply(created(2), new Date(T0))).rejects.toThrow(/not connected/);
  });
});
