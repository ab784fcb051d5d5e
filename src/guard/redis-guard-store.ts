import { promisify } from 'node:util';
import { gunzip, gzip } from 'node:zlib';
import type { RedisClient } from '../state/redis-client';
import type { RedisKeys } from '../state/redis-keys';
import type { RedisCalls } from '../state/redis-state-store';
import type { Claim, GuardedRun, GuardStore } from './guard-store';
import type { SilentSignal } from '../policy/facts/signal-facts';
import { silentField, silentSignalOf } from './silent-signals';

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

/** Keeps a run and indexes it by expiry, in one step. */
const KEEP = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 'kept'`;

/** Keeps a run as KEEP does, only while the caller's token holds the overlap lock (KEYS[3]). */
const KEEP_LOCKED = `
if redis.call('GET', KEYS[3]) ~= ARGV[5] then return 'lost' end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
return 'kept'`;

/** Forgets a run, its index entry and its silences, in one step. */
const FORGET = `
redis.call('DEL', KEYS[1])
redis.call('ZREM', KEYS[2], ARGV[1])
redis.call('DEL', KEYS[3])
return 'forgotten'`;

/**
 * A tick's silences of one run, in one step: ARGV[1] how long to keep them (ms), then field, since pairs. A
 * field kept keeps its time (HSETNX: the replica that wrote first wins), the fields not listed are
 * dropped; answers the hash as it is then.
 */
const SILENCED = `
local listed = {}
for i = 2, #ARGV, 2 do
  redis.call('HSETNX', KEYS[1], ARGV[i], ARGV[i + 1])
  listed[ARGV[i]] = true
end
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if not listed[field] then redis.call('HDEL', KEYS[1], field) end
end
if #ARGV > 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return redis.call('HGETALL', KEYS[1])`;

const CLAIMS: readonly Claim[] = ['claimed', 'held', 'stopped'];

// Off the event loop (zlib's thread pool): a 10,000-target payload is ~10 MB of JSON, ~0.6 MB gzipped.
const packed = promisify(gzip);
const unpacked = promisify(gunzip);

/** A kept run as stored: its JSON gzipped (payloads repeat their keys and values: ~16x smaller). */
const pack = (run: GuardedRun): Promise<Buffer> => packed(Buffer.from(JSON.stringify(run), 'utf8'));

/** A stored run: gzipped JSON, or JSON text as versions before compression kept it. */
async function unpack(value: Buffer): Promise<GuardedRun> {
  const gzipped = value.length > 1 && value[0] === 0x1f && value[1] === 0x8b;
  return JSON.parse((gzipped ? await unpacked(value) : value).toString('utf8')) as GuardedRun;
}

/**
 * The guarded runs in Redis, under the state's key prefix (one hash slot, every topology): each run
 * a key that expires with EXECUTION_TTL_SECONDS, an index of them by expiry, and a cancel lease per
 * run taken with SET-if-absent in a script, so exactly one replica cancels a run.
 */
export class RedisGuardStore implements GuardStore {
  /**
   * The runs this replica has read, by id, with the expiry the index held then. A kept payload is
   * never changed, only kept again (a new expiry) or forgotten (gone from the index), so each is
   * read and unzipped once, not at every tick (issue 48: a tick over 1,000 runs of 10 targets
   * spent most of its CPU unzipping and parsing them again). As many as the index lists, no more.
   */
  private readonly decoded = new Map<string, { expiresMs: number; run: GuardedRun }>();

  constructor(
    private readonly redis: RedisClient,
    private readonly keys: RedisKeys,
    private readonly calls: RedisCalls,
  ) {}

  async keep(run: GuardedRun, expiresMs: number, nowMs: number): Promise<void> {
    const ttl = Math.max(1, expiresMs - nowMs);
    const k = this.keys;
    const value = await pack(run);
    await this.calls.write('guard keep', (pipe) =>
      pipe.eval(KEEP, 2, k.guardRun(run.executionId), k.guardRuns, value, ttl, expiresMs, run.executionId),
    );
  }

  async lockOverlap(token: string, lockMs: number): Promise<boolean> {
    const answer = await this.calls.write('guard overlap lock', (pipe) =>
      pipe.set(this.keys.guardOverlapLock, token, 'PX', lockMs, 'NX'),
    );
    return answer === 'OK';
  }

  async keepLocked(run: GuardedRun, expiresMs: number, nowMs: number, token: string): Promise<boolean> {
    const ttl = Math.max(1, expiresMs - nowMs);
    const k = this.keys;
    const value = await pack(run);
    const answer = await this.calls.write('guard keep', (pipe) =>
      pipe.eval(
        KEEP_LOCKED,
        3,
        k.guardRun(run.executionId),
        k.guardRuns,
        k.guardOverlapLock,
        value,
        ttl,
        expiresMs,
        run.executionId,
        token,
      ),
    );
    return answer === 'kept';
  }

  async unlockOverlap(token: string): Promise<void> {
    await this.calls.write('guard overlap lock', (pipe) => pipe.eval(RELEASE, 1, this.keys.guardOverlapLock, token));
  }

  async runs(nowMs: number): Promise<GuardedRun[]> {
    const index = await this.calls.read('guard read', async () => {
      await this.redis.zremrangebyscore(this.keys.guardRuns, '-inf', nowMs);
      return this.redis.zrange(this.keys.guardRuns, 0, -1, 'WITHSCORES');
    });
    // The index, [id, expiry, id, expiry, ...]: a run is read again only when it is new here or was
    // kept again (a keep sets a new expiry), so a tick over runs it has seen reads the index alone.
    const listed = new Map<string, number>();
    for (let i = 0; i + 1 < index.length; i += 2) listed.set(index[i], Number(index[i + 1]));
    for (const id of this.decoded.keys()) if (!listed.has(id)) this.decoded.delete(id);
    const unread = [...listed].filter(([id, expiresMs]) => this.decoded.get(id)?.expiresMs !== expiresMs);
    if (unread.length > 0) {
      const values = await this.calls.read('guard read', () =>
        this.redis.mgetBuffer(unread.map(([id]) => this.keys.guardRun(id))),
      );
      for (let i = 0; i < unread.length; i++) {
        const [id, expiresMs] = unread[i];
        const value = values[i];
        if (value === null) this.decoded.delete(id);
        else this.decoded.set(id, { expiresMs, run: await unpack(value) });
      }
    }
    const runs: GuardedRun[] = [];
    for (const id of listed.keys()) {
      const kept = this.decoded.get(id);
      if (kept) runs.push(kept.run);
    }
    return runs.sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
  }

  async ids(nowMs: number): Promise<string[]> {
    // The index is scored by expiry: what expires after now is in progress (no write on this path).
    return this.calls.read('guard read', () => this.redis.zrangebyscore(this.keys.guardRuns, `(${nowMs}`, '+inf'));
  }

  async fetch(executionIds: readonly string[]): Promise<GuardedRun[]> {
    if (executionIds.length === 0) return [];
    const values = await this.calls.read('guard read', () =>
      this.redis.mgetBuffer(executionIds.map((id) => this.keys.guardRun(id))),
    );
    const runs: GuardedRun[] = [];
    for (const value of values) if (value !== null) runs.push(await unpack(value));
    return runs;
  }

  async has(executionId: string): Promise<boolean> {
    return (await this.calls.read('guard read', () => this.redis.exists(this.keys.guardRun(executionId)))) === 1;
  }

  async forget(executionId: string): Promise<void> {
    await this.calls.write('guard forget', (pipe) =>
      pipe.eval(
        FORGET,
        3,
        this.keys.guardRun(executionId),
        this.keys.guardRuns,
        this.keys.guardSilent(executionId),
        executionId,
      ),
    );
  }

  async claim(executionId: string, owner: string, leaseMs: number): Promise<Claim> {
    const answer = await this.calls.write('guard lease', (pipe) =>
      pipe.eval(CLAIM, 1, this.keys.guardLease(executionId), owner, String(leaseMs)),
    );
    return CLAIMS.includes(answer as Claim) ? (answer as Claim) : 'held';
  }

  async release(executionId: string, owner: string): Promise<void> {
    await this.calls.write('guard lease', (pipe) => pipe.eval(RELEASE, 1, this.keys.guardLease(executionId), owner));
  }

  async silences(executionId: string): Promise<SilentSignal[]> {
    const kept = await this.calls.read('guard read', () => this.redis.hgetall(this.keys.guardSilent(executionId)));
    return Object.entries(kept).map(([field, since]) => silentSignalOf(field, since));
  }

  async silenced(
    executionId: string,
    silent: readonly SilentSignal[],
    expiresMs: number,
    nowMs: number,
  ): Promise<SilentSignal[]> {
    const pairs = silent.flatMap((s) => [silentField(s), s.since]);
    const ttl = Math.max(1, Math.round(expiresMs - nowMs));
    const answer = await this.calls.write('guard silences', (pipe) =>
      pipe.eval(SILENCED, 1, this.keys.guardSilent(executionId), String(ttl), ...pairs),
    );
    const flat = Array.isArray(answer) ? (answer as string[]) : [];
    const out: SilentSignal[] = [];
    for (let i = 0; i + 1 < flat.length; i += 2) out.push(silentSignalOf(flat[i], flat[i + 1]));
    return out;
  }

  async stopped(executionId: string, owner: string, keepMs: number): Promise<void> {
    await this.calls.write('guard lease', (pipe) =>
      pipe.set(this.keys.guardLease(executionId), `stopped:${owner}`, 'PX', keepMs),
    );
  }
}
