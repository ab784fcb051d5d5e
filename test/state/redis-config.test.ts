import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError } from '../../src/common/env-values';
import { parseRedisConfig, type RedisConfig } from '../../src/state/redis-config';

let dir: string;
let caFile: string;
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'pg-redis-config-'));
  caFile = join(dir, 'ca.pem');
  writeFileSync(caFile, '-----BEGIN CERTIFICATE-----\nnot checked here\n-----END CERTIFICATE-----\n');
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('Redis settings: one topology, credentials, TLS', () => {
  test.each<[string, Record<string, string>, Partial<RedisConfig> | undefined]>([
    ['nothing set: in-memory state', {}, undefined],
    [
      'REDIS_URL: one server, no replica to wait for',
      { REDIS_URL: 'redis://r:6379/0' },
      { topology: { kind: 'standalone', url: 'redis://r:6379/0' }, waitReplicas: 0, keyPrefix: 'preflight-gate:' },
    ],
    ['rediss:// is TLS with the system CAs', { REDIS_URL: 'rediss://r:6380' }, { tls: {} }],
    [
      'REDIS_SENTINELS with a name and sentinel credentials; one replica must hold each update',
      {
        REDIS_SENTINELS: 's0:26379, s1:26379,[::1]:26380',
        REDIS_SENTINEL_NAME: 'gate',
        REDIS_SENTINEL_PASSWORD: 'sp',
        REDIS_PASSWORD: 'p',
      },
      {
        topology: {
          kind: 'sentinel',
          sentinels: [
            { host: 's0', port: 26379 },
            { host: 's1', port: 26379 },
            { host: '::1', port: 26380 },
          ],
          name: 'gate',
          sentinelUsername: undefined,
          sentinelPassword: 'sp',
        },
        password: 'p',
        waitReplicas: 1,
      },
    ],
    [
      'REDIS_CLUSTER_NODES with an ACL user and TLS',
      { REDIS_CLUSTER_NODES: 'c0:6379,c1:6379', REDIS_USERNAME: 'gate', REDIS_PASSWORD: 'p', REDIS_TLS: 'true' },
      {
        topology: {
          kind: 'cluster',
          nodes: [
            { host: 'c0', port: 6379 },
            { host: 'c1', port: 6379 },
          ],
        },
        username: 'gate',
        password: 'p',
        tls: {},
        waitReplicas: 1,
      },
    ],
    [
      'REDIS_WAIT_REPLICAS=0 turns the wait off',
      { REDIS_CLUSTER_NODES: 'c0:6379', REDIS_WAIT_REPLICAS: '0' },
      { waitReplicas: 0 },
    ],
  ])('%s', (_name, env, expected) => {
    const config = parseRedisConfig(env);
    if (expected === undefined) expect(config).toBeUndefined();
    else expect(config).toMatchObject(expected);
  });

  test('REDIS_TLS_CA_FILE is read at start-up and turns TLS on', () => {
    expect(parseRedisConfig({ REDIS_CLUSTER_NODES: 'c0:6379', REDIS_TLS_CA_FILE: caFile })?.tls?.ca).toContain(
      'BEGIN CERTIFICATE',
    );
  });

  test.each([
    [
      { REDIS_URL: 'redis://a:1', REDIS_CLUSTER_NODES: 'c:1' },
      'REDIS_URL and REDIS_CLUSTER_NODES are set: set exactly one of REDIS_URL, REDIS_SENTINELS, REDIS_CLUSTER_NODES',
    ],
    [{ REDIS_URL: 'localhost:6379' }, 'REDIS_URL must look like redis://host:6379/0'],
    [{ REDIS_SENTINELS: 's0:26379' }, 'REDIS_SENTINELS needs REDIS_SENTINEL_NAME'],
    [{ REDIS_SENTINEL_NAME: 'gate' }, 'REDIS_SENTINEL_NAME is set without REDIS_SENTINELS'],
    [
      { REDIS_SENTINELS: 's0', REDIS_SENTINEL_NAME: 'gate' },
      'REDIS_SENTINELS must be host:port entries separated by commas (e.g. redis-0:26379,redis-1:26379), got "s0"',
    ],
    [
      { REDIS_CLUSTER_NODES: 'c0:6379,c1:70000' },
      'REDIS_CLUSTER_NODES must be host:port entries separated by commas (e.g. redis-0:26379,redis-1:26379), got "c1:70000"',
    ],
    [{ REDIS_URL: 'redis://r:6379', REDIS_TLS: 'true' }, 'REDIS_TLS / REDIS_TLS_CA_FILE need a rediss:// REDIS_URL'],
    [{ REDIS_CLUSTER_NODES: 'c0:6379', REDIS_TLS: 'yes' }, 'REDIS_TLS must be true or false, got "yes"'],
    [
      { REDIS_CLUSTER_NODES: 'c0:6379', REDIS_TLS_CA_FILE: '/nonexistent/ca.pem' },
      'REDIS_TLS_CA_FILE cannot be read: ENOENT',
    ],
    [
      { REDIS_URL: 'redis://u:p@r:6379', REDIS_PASSWORD: 'p2' },
      'REDIS_URL carries credentials and REDIS_USERNAME/REDIS_PASSWORD are set',
    ],
    [{ REDIS_CLUSTER_NODES: 'c0:6379', REDIS_USERNAME: 'gate' }, 'REDIS_USERNAME is set without REDIS_PASSWORD'],
    [{ REDIS_URL: 'redis://r:6379', REDIS_KEY_PREFIX: '{gate}' }, 'REDIS_KEY_PREFIX must not contain braces or spaces'],
    [
      { REDIS_CLUSTER_NODES: 'c0:6379', REDIS_WAIT_REPLICAS: '-1' },
      'REDIS_WAIT_REPLICAS must be a whole number from 0 to 16, got "-1"',
    ],
  ])('%j is refused with a message naming the variable', (env, message) => {
    expect(() => parseRedisConfig(env)).toThrow(ConfigError);
    expect(() => parseRedisConfig(env)).toThrow(message);
  });
});
