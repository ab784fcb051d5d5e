import { deploymentOf } from './pod-spec';
import { find, render } from './render-chart';

const SECRET = 'a-long-random-webhook-secret';
/** `--set` splits at commas: host lists are escaped as a user would (`s0:26379\\,s1:26379`). */
const escaped = (set: Record<string, string>) =>
  Object.fromEntries(Object.entries(set).map(([k, v]) => [k, v.replace(/,/g, '\\,')]));
const redisEnv = (set: Record<string, string>) => {
  const { container, pod } = deploymentOf(find(render({ 'webhook.secret': SECRET, ...escaped(set) }), 'Deployment'));
  return {
    env: Object.fromEntries(
      container.env.filter((e) => e.name.startsWith('REDIS_')).map((e) => [e.name, e.value ?? e.valueFrom]),
    ),
    container,
    pod,
  };
};

describe('helm template: Redis in each topology (docs/state.md#topologies)', () => {
  test("one server: REDIS_URL from the chart's Secret", () => {
    expect(redisEnv({ 'state.redis.url': 'redis://r:6379/0' }).env).toEqual({
      REDIS_URL: { secretKeyRef: { name: expect.any(String), key: 'redis-url' } },
    });
  });

  test('Sentinel with an ACL user, passwords from a Secret you manage and TLS with your CA', () => {
    const { env, container, pod } = redisEnv({
      'state.redis.sentinels': 's0:26379,s1:26379,s2:26379',
      'state.redis.sentinelName': 'gate',
      'state.redis.existingSecret': 'redis-auth',
      'state.redis.username': 'gate',
      'state.redis.passwordKey': 'password',
      'state.redis.sentinelPasswordKey': 'sentinel-password',
      'state.redis.tls.enabled': 'true',
      'state.redis.tls.caSecret': 'redis-ca',
    });
    expect(env).toEqual({
      REDIS_SENTINELS: 's0:26379,s1:26379,s2:26379',
      REDIS_SENTINEL_NAME: 'gate',
      REDIS_USERNAME: 'gate',
      REDIS_PASSWORD: { secretKeyRef: { name: 'redis-auth', key: 'password' } },
      REDIS_SENTINEL_PASSWORD: { secretKeyRef: { name: 'redis-auth', key: 'sentinel-password' } },
      REDIS_TLS: 'true',
      REDIS_TLS_CA_FILE: '/var/run/secrets/redis-ca/ca.crt',
    });
    expect(container.volumeMounts).toContainEqual({
      name: 'redis-ca',
      mountPath: '/var/run/secrets/redis-ca',
      readOnly: true,
    });
    expect(pod.volumes).toContainEqual({
      name: 'redis-ca',
      secret: { secretName: 'redis-ca', items: [{ key: 'ca.crt', path: 'ca.crt' }] },
    });
  });

  test('Cluster, with the replica wait turned off', () => {
    expect(redisEnv({ 'state.redis.clusterNodes': 'c0:6379,c1:6379', 'state.redis.waitReplicas': '0' }).env).toEqual({
      REDIS_CLUSTER_NODES: 'c0:6379,c1:6379',
      REDIS_WAIT_REPLICAS: '0',
    });
  });

  test.each([
    [{ 'state.redis.sentinels': 's0:26379' }, 'state.redis.sentinelName is required'],
    [{ 'state.redis.clusterNodes': 'c0' }, 'clusterNodes'],
    [
      { 'state.redis.clusterNodes': 'c0:6379', 'state.redis.passwordKey': 'p' },
      'state.redis.existingSecret holds the Redis passwords',
    ],
  ])('%j is refused: %s', (set, message) => {
    expect(() => render({ 'webhook.secret': SECRET, ...set })).toThrow(message);
  });
});
