/** Runs kept per scope: running now, ended (cool-downs), started (quotas). */
export type RunKind = 'running' | 'ended' | 'started';

/** The Redis key names of the state under one REDIS_KEY_PREFIX. */
export interface RedisKeys {
  killswitch: string;
  seen(dedupeKey: string): string;
  execution(id: string): string;
  runs(kind: RunKind, scope: string): string;
  /** The guard (docs/guard.md): a run in progress, the index of them by expiry, a run's cancel lease. */
  guardRun(id: string): string;
  guardRuns: string;
  guardLease(id: string): string;
  /** Since when each signal of a run's deadMan rules has been silent (a hash: signal -> ISO time). */
  guardSilent(id: string): string;
  /** Held while one replica decides a run against the runs in progress and keeps it (noOverlap): one at a time. */
  guardOverlapLock: string;
  /** Runs an exception with maxUses has waived. */
  exceptionUses(name: string): string;
}

/**
 * Every key is `{<prefix>}<name>`: the braces are a Redis Cluster hash tag, so all keys of one
 * prefix hash to one slot. Every script and every read then touches one slot on one node, in
 * every topology (docs/decisions/0012-redis-hash-tag.md). The prefix never holds braces (redis-config.ts).
 */
export function redisKeys(prefix: string): RedisKeys {
  const tag = `{${prefix}}`;
  return {
    killswitch: `${tag}killswitch`,
    seen: (dedupeKey) => `${tag}seen:${dedupeKey}`,
    execution: (id) => `${tag}exec:${id}`,
    runs: (kind, scope) => `${tag}${kind}:${scope}`,
    guardRun: (id) => `${tag}guard:run:${id}`,
    guardRuns: `${tag}guard:runs`,
    guardLease: (id) => `${tag}guard:lease:${id}`,
    guardSilent: (id) => `${tag}guard:silent:${id}`,
    guardOverlapLock: `${tag}guard:overlap-lock`,
    exceptionUses: (name) => `${tag}exception-uses:${name}`,
  };
}
