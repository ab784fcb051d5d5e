import type { RedisClient } from '../state/redis-client';
import type { RedisKeys } from '../state/redis-keys';
import type { Claim, GuardedRun, GuardStore } from './guard-store';

/** Takes the lease unless it is held or marks the run stopped: one step, so two replicas cannot both take it. */
const CLAIM = `
local v = redis.call('GET', KEYS[1])
if v then
  if string.sub(v, 1, 8) == 'stopped:' then return 'stopped' end
  return 'held'
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'claimed'`;

/** Deletes the lease only if this replica still holds it (it may have expired and been taken by another). */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0`;

/** How the state store runs a command: within its timeout, any failure a StateUnavailableError. */
export type RedisCall = <T>(what: string, run: () => Promise<T>) => Promise<T>;

const CLAIMS: readonly Claim[] = ['claimed', 'held', 'stopped'];

/**
 * The guarded runs in Redis, under the state's key prefix (one hash slot, every topology): each run
 * a key that expires with EXECUTION_TTL_SECONDS, an index of them by expiry, and a cancel lease per
 * run taken with SET-if-absent in a script, so exactly one replica cancels a run.
 */
export class RedisGuardStore implements GuardStore {
  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly call: RedisCall,
  ) {}

  async keep(run: GuardedRun, expiresMs: number, nowMs: number): Promise<void> {
    const ttl = Math.max(1, expiresMs - nowMs);
    await this.call('guard keep', () =>
      this.redis
        .multi()
        .set(this.keys.guardRun(run.executionId), JSON.stringify(run), 'PX', ttl)
        .zadd(this.keys.guardRuns, expiresMs, run.executionId)
        .exec(),
    );
  }

  async runs(nowMs: number): Promise<GuardedRun[]> {
    const ids = await this.call('guard read', async () => {
      await this.redis.zremrangebyscore(this.keys.guardRuns, '-inf', nowMs);
      return this.redis.zrange(this.keys.guardRuns, 0, -1);
    });
    if (ids.length === 0) return [];
    const values = await this.call('guard read', () => this.redis.mget(ids.map((id) => this.keys.guardRun(id))));
    const runs: GuardedRun[] = [];
    for (const value of values) if (value !== null) runs.push(JSON.parse(value) as GuardedRun);
    return runs.sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
  }

  async has(executionId: string): Promise<boolean> {
    return (await this.call('guard read', () => this.redis.exists(this.keys.guardRun(executionId)))) === 1;
  }

  async forget(executionId: string): Promise<void> {
    await this.call('guard forget', () =>
      this.redis.multi().del(this.keys.guardRun(executionId)).zrem(this.keys.guardRuns, executionId).exec(),
    );
  }

  async claim(executionId: string, owner: string, leaseMs: number): Promise<Claim> {
    const answer = await this.call('guard lease', () =>
      this.redis.eval(CLAIM, 1, this.keys.guardLease(executionId), owner, String(leaseMs)),
    );
    return CLAIMS.includes(answer as Claim) ? (answer as Claim) : 'held';
  }

  async release(executionId: string, owner: string): Promise<void> {
    await this.call('guard lease', () => this.redis.eval(RELEASE, 1, this.keys.guardLease(executionId), owner));
  }

  async stopped(executionId: string, owner: string, keepMs: number): Promise<void> {
    await this.call('guard lease', () =>
      this.redis.set(this.keys.guardLease(executionId), `stopped:${owner}`, 'PX', keepMs),
    );
  }
}
