"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisGuardStore = void 0;
const node_util_1 = require("node:util");
const node_zlib_1 = require("node:zlib");
const silent_signals_1 = require("./silent-signals");
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
const CLAIMS = ['claimed', 'held', 'stopped'];
// Off the event loop (zlib's thread pool): a 10,000-target payload is ~10 MB of JSON, ~0.6 MB gzipped.
const packed = (0, node_util_1.promisify)(node_zlib_1.gzip);
const unpacked = (0, node_util_1.promisify)(node_zlib_1.gunzip);
/** A kept run as stored: its JSON gzipped (payloads repeat their keys and values: ~16x smaller). */
const pack = (run) => packed(Buffer.from(JSON.stringify(run), 'utf8'));
/** A stored run: gzipped JSON, or JSON text as versions before compression kept it. */
async function unpack(value) {
    const gzipped = value.length > 1 && value[0] === 0x1f && value[1] === 0x8b;
    return JSON.parse((gzipped ? await unpacked(value) : value).toString('utf8'));
}
/**
 * The guarded runs in Redis, under the state's key prefix (one hash slot, every topology): each run
 * a key that expires with EXECUTION_TTL_SECONDS, an index of them by expiry, and a cancel lease per
 * run taken with SET-if-absent in a script, so exactly one replica cancels a run.
 */
class RedisGuardStore {
    redis;
    keys;
    calls;
    /**
     * The runs this replica has read, by id, with the expiry the index held then. A kept payload is
     * never changed, only kept again (a new expiry) or forgotten (gone from the index), so each is
     * read and unzipped once, not at every tick (issue 48: a tick over 1,000 runs of 10 targets
     * spent most of its CPU unzipping and parsing them again). As many as the index lists, no more.
     */
    decoded = new Map();
    constructor(redis, keys, calls) {
        this.redis = redis;
        this.keys = keys;
        this.calls = calls;
    }
    async keep(run, expiresMs, nowMs) {
        const ttl = Math.max(1, expiresMs - nowMs);
        const k = this.keys;
        const value = await pack(run);
        await this.calls.write('guard keep', (pipe) => pipe.eval(KEEP, 2, k.guardRun(run.executionId), k.guardRuns, value, ttl, expiresMs, run.executionId));
    }
    async lockOverlap(token, lockMs) {
        const answer = await this.calls.write('guard overlap lock', (pipe) => pipe.set(this.keys.guardOverlapLock, token, 'PX', lockMs, 'NX'));
        return answer === 'OK';
    }
    async keepLocked(run, expiresMs, nowMs, token) {
        const ttl = Math.max(1, expiresMs - nowMs);
        const k = this.keys;
        const value = await pack(run);
        const answer = await this.calls.write('guard keep', (pipe) => pipe.eval(KEEP_LOCKED, 3, k.guardRun(run.executionId), k.guardRuns, k.guardOverlapLock, value, ttl, expiresMs, run.executionId, token));
        return answer === 'kept';
    }
    async unlockOverlap(token) {
        await this.calls.write('guard overlap lock', (pipe) => pipe.eval(RELEASE, 1, this.keys.guardOverlapLock, token));
    }
    async runs(nowMs) {
        const index = await this.calls.read('guard read', async () => {
            await this.redis.zremrangebyscore(this.keys.guardRuns, '-inf', nowMs);
            return this.redis.zrange(this.keys.guardRuns, 0, -1, 'WITHSCORES');
        });
        // The index, [id, expiry, id, expiry, ...]: a run is read again only when it is new here or was
        // kept again (a keep sets a new expiry), so a tick over runs it has seen reads the index alone.
        const listed = new Map();
        for (let i = 0; i + 1 < index.length; i += 2)
            listed.set(index[i], Number(index[i + 1]));
        for (const id of this.decoded.keys())
            if (!listed.has(id))
                this.decoded.delete(id);
        const unread = [...listed].filter(([id, expiresMs]) => this.decoded.get(id)?.expiresMs !== expiresMs);
        if (unread.length > 0) {
            const values = await this.calls.read('guard read', () => this.redis.mgetBuffer(unread.map(([id]) => this.keys.guardRun(id))));
            for (let i = 0; i < unread.length; i++) {
                const [id, expiresMs] = unread[i];
                const value = values[i];
                if (value === null)
                    this.decoded.delete(id);
                else
                    this.decoded.set(id, { expiresMs, run: await unpack(value) });
            }
        }
        const runs = [];
        for (const id of listed.keys()) {
            const kept = this.decoded.get(id);
            if (kept)
                runs.push(kept.run);
        }
        return runs.sort((a, b) => a.allowedAt.localeCompare(b.allowedAt));
    }
    async ids(nowMs) {
        // The index is scored by expiry: what expires after now is in progress (no write on this path).
        return this.calls.read('guard read', () => this.redis.zrangebyscore(this.keys.guardRuns, `(${nowMs}`, '+inf'));
    }
    async fetch(executionIds) {
        if (executionIds.length === 0)
            return [];
        const values = await this.calls.read('guard read', () => this.redis.mgetBuffer(executionIds.map((id) => this.keys.guardRun(id))));
        const runs = [];
        for (const value of values)
            if (value !== null)
                runs.push(await unpack(value));
        return runs;
    }
    async has(executionId) {
        return (await this.calls.read('guard read', () => this.redis.exists(this.keys.guardRun(executionId)))) === 1;
    }
    async forget(executionId) {
        await this.calls.write('guard forget', (pipe) => pipe.eval(FORGET, 3, this.keys.guardRun(executionId), this.keys.guardRuns, this.keys.guardSilent(executionId), executionId));
    }
    async claim(executionId, owner, leaseMs) {
        const answer = await this.calls.write('guard lease', (pipe) => pipe.eval(CLAIM, 1, this.keys.guardLease(executionId), owner, String(leaseMs)));
        return CLAIMS.includes(answer) ? answer : 'held';
    }
    async release(executionId, owner) {
        await this.calls.write('guard lease', (pipe) => pipe.eval(RELEASE, 1, this.keys.guardLease(executionId), owner));
    }
    async silences(executionId) {
        const kept = await this.calls.read('guard read', () => this.redis.hgetall(this.keys.guardSilent(executionId)));
        return Object.entries(kept).map(([field, since]) => (0, silent_signals_1.silentSignalOf)(field, since));
    }
    async silenced(executionId, silent, expiresMs, nowMs) {
        const pairs = silent.flatMap((s) => [(0, silent_signals_1.silentField)(s), s.since]);
        const ttl = Math.max(1, Math.round(expiresMs - nowMs));
        const answer = await this.calls.write('guard silences', (pipe) => pipe.eval(SILENCED, 1, this.keys.guardSilent(executionId), String(ttl), ...pairs));
        const flat = Array.isArray(answer) ? answer : [];
        const out = [];
        for (let i = 0; i + 1 < flat.length; i += 2)
            out.push((0, silent_signals_1.silentSignalOf)(flat[i], flat[i + 1]));
        return out;
    }
    async stopped(executionId, owner, keepMs) {
        await this.calls.write('guard lease', (pipe) => pipe.set(this.keys.guardLease(executionId), `stopped:${owner}`, 'PX', keepMs));
    }
}
exports.RedisGuardStore = RedisGuardStore;
//# sourceMappingURL=redis-guard-store.js.map