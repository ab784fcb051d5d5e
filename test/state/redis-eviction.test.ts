import { evictionRisk } from '../../src/state/redis-eviction';

// INFO memory as redis-server 7 answers it (the fields read, among others).
const info = (maxmemory: number, policy?: string) =>
  [
    '# Memory',
    'used_memory:1000000',
    `maxmemory:${maxmemory}`,
    ...(policy ? [`maxmemory_policy:${policy}`] : []),
    '',
  ].join('\r\n');

describe('evictionRisk: whether Redis may drop what the gate keeps', () => {
  test('noeviction, or no maxmemory: nothing is dropped', () => {
    expect(evictionRisk([info(100_000_000, 'noeviction')])).toBeUndefined();
    expect(evictionRisk([info(0, 'allkeys-lru')])).toBeUndefined();
  });

  test.each(['allkeys-lru', 'volatile-lru', 'volatile-ttl', 'allkeys-random'])(
    'maxmemory with %s: said, with what it drops and what to set',
    (policy) => {
      expect(evictionRisk([info(104_857_600, policy)])).toBe(
        `Redis evicts keys when full (maxmemory 104857600 bytes, maxmemory-policy ${policy}): a run record, exception use count or guarded run it evicts is forgotten, and runs it would have denied are allowed. Set maxmemory-policy noeviction (a full Redis then refuses writes, which the gate answers by denying)`,
      );
    },
  );

  test('a cluster: any primary that evicts is said, each setting once', () => {
    const said = evictionRisk([info(1, 'noeviction'), info(5, 'allkeys-lfu'), info(5, 'allkeys-lfu')]);
    expect(said).toContain('(maxmemory 5 bytes, maxmemory-policy allkeys-lfu)');
  });

  test('an answer without the policy: cannot be known, said so', () => {
    expect(evictionRisk([info(5)])).toContain('cannot be known');
  });
});
