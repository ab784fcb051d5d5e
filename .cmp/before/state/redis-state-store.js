"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.RedisStateStore = void 0;
const ioredis_1 = require("ioredis");
const redis_eviction_1 = require("./redis-eviction");
const redis_client_1 = require("./redis-client");
const redis_keys_1 = require("./redis-keys");
const redis_scripts_1 = require("./redis-scripts");
const state_event_1 = require("./state-event");
const state_store_1 = require("./state-store");
const OUTCOMES = ['applied', 'duplicate', 'stale', 'unmatched'];
/** Attempts when another replica changes an execution's record between our read and our script. */
const ATTEMPTS = 4;
const RECONNECT_AFTER_END_MS = 1000;
const EVICTION_READ_MS = 60_000;
/** `[member, score, member, score, ...]` -> runs; ended members are `id|STATE`. */
function runs(flat) {
    const out = [];
    for (let i = 0; i < flat.length; i += 2) {
        const [id, state] = flat[i].split('|');
        out.push({
            id,
            atMs: Number(flat[i + 1]),
            ...(state_event_1.END_STATES.includes(state) ? { state: state } : {}),
        });
    }
    return out;
}
/**
 * A connection error as /readyz shows it. A TLS handshake that fails on the certificate surfaces
 * either as the client's verdict (`self-signed certificate in certificate chain`) or, when the
 * server's alert is read first, as an SSL alert (`tlsv1 alert decode error`): both say which step
 * failed and where the trusted CAs come from.
 */
function describeConnectError(err) {
    const code = err.code ?? '';
    const tls = /certificate|SSL|TLS/i.test(err.message) || code.startsWith('ERR_SSL') || code.includes('CERT');
    return tls
        ? `TLS handshake with Redis failed: ${err.message} (is the server's certificate signed by the CA in REDIS_TLS_CA_FILE, or by a system CA without it?)`
        : err.message;
}
/**
 * The state in Redis (one server, Sentinel or Cluster), shared by every replica. Updates are Lua
 * scripts (atomic, one hash slot). With REDIS_WAIT_REPLICAS > 0 an update counts only once that
 * many replicas hold it (WAIT), so a failover cannot lose what /events acknowledged. Commands
 * never queue while Redis is away: they fail at once (or after timeoutMs) and the client
 * reconnects by itself, so the service recovers when Redis (or the new primary) answers.
 */
class RedisStateStore {
    opts;
    kind = 'redis';
    redis;
    keys;
    lastError;
    /**
     * Redis refused the database REDIS_URL names (`/99` on a server with 16). ioredis then reports
     * the connection ready on database 0, where another deployment's state may live: the store stays
     * unavailable until the URL is fixed and the service restarted.
     */
    refusedDatabase;
    closed = false;
    /** Why Redis may evict what the store keeps (redis-eviction.ts), as last read; undefined: it does not. */
    eviction;
    evictionTimer;
    constructor(opts) {
        this.opts = opts;
        this.redis = (0, redis_client_1.createRedisClient)(opts.redis, opts.timeoutMs);
        this.keys = (0, redis_keys_1.redisKeys)(opts.redis.keyPrefix);
        this.redis.on('error', (err) => {
            this.lastError = describeConnectError(err);
            if (/DB index is out of range|SELECT is not allowed/i.test(err.message)) {
                this.refusedDatabase = `Redis refused the database REDIS_URL names (${err.message}): state is unavailable until REDIS_URL names one the server has`;
            }
        });
        this.redis.on('ready', () => {
            this.lastError = undefined;
            void this.readEviction();
        });
        // Read again now and then: maxmemory and its policy can be changed on a running Redis.
        this.evictionTimer = setInterval(() => void this.readEviction(), EVICTION_READ_MS).unref();
        this.redis.on('end', () => this.connectAgain());
        this.redis.defineCommand('applyKillswitch', { numberOfKeys: 2, lua: redis_scripts_1.APPLY_KILLSWITCH });
        this.redis.defineCommand('applyExecution', { lua: redis_scripts_1.APPLY_EXECUTION });
        this.redis.defineCommand('takeExceptionUses', { lua: redis_scripts_1.TAKE_EXCEPTION_USES });
    }
    /**
     * ioredis stops for good ('end') when a sentinel's +switch-master arrives while it is already
     * reconnecting (its failover detector closes the connector under the attempt in flight): seen
     * in test/state/redis-sentinel.int.test.ts, a second failover left one instance disconnected for
     * ever. Unless the store was closed, start connecting again.
     */
    connectAgain() {
        if (this.closed)
            return;
        setTimeout(() => {
            if (this.closed || this.redis.status !== 'end')
                return;
            this.redis.connect().catch((err) => {
                this.lastError = err.message;
            });
        }, RECONNECT_AFTER_END_MS).unref();
    }
    unavailable() {
        return this.redis.status !== 'ready' || this.refusedDatabase !== undefined;
    }
    notConnected() {
        if (this.refusedDatabase !== undefined)
            return this.refusedDatabase;
        return `Redis (${(0, redis_client_1.describeTopology)(this.opts.redis)}) is not connected (${this.redis.status}${this.lastError ? `: ${this.lastError}` : ''})`;
    }
    /** Runs `run` within timeoutMs, whatever the client's own retries do; any failure is StateUnavailableError. */
    async call(what, run) {
        if (this.unavailable())
            throw new state_store_1.StateUnavailableError(this.notConnected());
        let timer;
        const timeout = new Promise((_, reject) => {
            timer = setTimeout(() => reject(new Error(`no answer within ${this.opts.timeoutMs} ms (STATE_TIMEOUT_MS)`)), this.opts.timeoutMs);
        });
        try {
            return await Promise.race([run(), timeout]);
        }
        catch (err) {
            if (err instanceof state_store_1.StateUnavailableError)
                throw err;
            throw new state_store_1.StateUnavailableError(`Redis ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
        }
        finally {
            clearTimeout(timer);
        }
    }
    /**
     * One script, then (REDIS_WAIT_REPLICAS) WAIT on the same node: the pipeline goes to the script's
     * node. Answers the script's reply as Redis sent it (a status text, or an array of counts).
     */
    async update(queue) {
        const pipe = this.redis.pipeline();
        queue(pipe);
        const { waitReplicas } = this.opts.redis;
        const waitMs = Math.max(1, Math.floor(this.opts.timeoutMs / 2));
        if (waitReplicas > 0)
            pipe.wait(waitReplicas, waitMs);
        const replies = await pipe.exec();
        if (!replies)
            throw new Error('pipeline aborted');
        for (const [err] of replies)
            if (err)
                throw err;
        const [[, result], acked] = replies;
        if (acked && Number(acked[1]) < waitReplicas) {
            throw new state_store_1.StateUnavailableError(`Redis update reached ${acked[1]} of ${waitReplicas} replicas within ${waitMs} ms (REDIS_WAIT_REPLICAS): it may not survive a failover`);
        }
        return result;
    }
    async apply(event, now) {
        const result = await this.call('update', () => event.kind === 'killswitch' ? this.applyKillswitch(event) : this.applyExecution(event, now));
        if (typeof result !== 'string' || !OUTCOMES.includes(result))
            throw new state_store_1.StateUnavailableError(`Redis update answered ${JSON.stringify(result)}`);
        return result;
    }
    applyKillswitch(event) {
        const ttl = String(2 * this.opts.eventToleranceMs);
        return this.update((pipe) => pipe.applyKillswitch(this.keys.seen(event.dedupeKey), this.keys.killswitch, ttl, event.engaged ? 'engaged' : 'disengaged', event.changedAt.key, event.changedAt.text, event.by, event.endsEngagementAt?.key ?? ''));
    }
    /**
     * First attempt: the usual case (a start finds no record, an end finds its run with the same
     * scopes). When the record is otherwise, read it and try again with the keys it names.
     */
    async applyExecution(event, now) {
        let expected = { status: event.phase === 'started' ? '' : 'running', scopes: event.scopes };
        for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
            const result = await this.runExecutionScript(event, now, expected);
            if (result !== 'retry')
                return result;
            const [status, scopes] = await this.redis.hmget(this.keys.execution(event.id), 'status', 'scopes');
            expected =
                status === 'running' || status === 'ended'
                    ? { status, scopes: status === 'running' && scopes ? scopes.split('\n') : event.scopes }
                    : { status: '', scopes: event.scopes };
        }
        throw new state_store_1.StateUnavailableError(`Redis update of execution ${event.id} kept meeting concurrent changes (${ATTEMPTS} attempts)`);
    }
    runExecutionScript(event, now, expected) {
        const nowMs = now.getTime();
        const k = this.keys;
        const scopeKeys = expected.scopes.flatMap((s) => ['running', 'started', 'ended'].map((kind) => k.runs(kind, s)));
        const keys = [k.seen(event.dedupeKey), k.execution(event.id), ...scopeKeys];
        const args = [
            String(2 * this.opts.eventToleranceMs),
            event.phase,
            event.id,
            event.time.key,
            String(event.time.ms),
            event.endState ?? '',
            String((0, state_store_1.recordRetentionMs)(this.opts)),
            String(nowMs - this.opts.executionTtlMs),
            String(nowMs - state_store_1.HISTORY_MS),
            String(state_store_1.HISTORY_MS),
            expected.status,
            expected.status === 'running' ? expected.scopes.join('\n') : '',
            ...expected.scopes,
        ];
        return this.update((pipe) => pipe.applyExecution(keys.length, ...keys, ...args));
    }
    async read(query, now) {
        const nowMs = now.getTime();
        const wanted = [];
        if (query.running)
            wanted.push(['running', nowMs - this.opts.executionTtlMs]);
        if (query.endedSinceMs !== undefined)
            wanted.push(['ended', query.endedSinceMs]);
        if (query.startedSinceMs !== undefined)
            wanted.push(['started', query.startedSinceMs]);
        const replies = await this.call('read', async () => {
            const tx = this.redis.multi();
            if (query.emergencyStop)
                tx.hgetall(this.keys.killswitch);
            for (const [kind, since] of wanted)
                for (const scope of query.scopes)
                    tx.zrangebyscore(this.keys.runs(kind, scope), since, '+inf', 'WITHSCORES');
            for (const name of query.exceptionUses ?? [])
                tx.get(this.keys.exceptionUses(name));
            const out = await tx.exec();
            if (!out)
                throw new Error('transaction aborted');
            return out.map(([err, value]) => {
                if (err)
                    throw err;
                return value;
            });
        });
        const view = {};
        let i = 0;
        if (query.emergencyStop) {
            const ks = replies[i++];
            view.emergencyStop =
                ks.engaged === '1' ? { engaged: true, by: ks.engagedBy, since: ks.engagedAtText } : { engaged: false };
        }
        for (const [kind] of wanted) {
            const byScope = {};
            for (const scope of query.scopes)
                byScope[scope] = runs(replies[i++]);
            view[kind] = byScope;
        }
        if (query.exceptionUses) {
            const counts = {};
            for (const name of query.exceptionUses) {
                const value = replies[i++];
                if (value !== null)
                    counts[name] = Number(value);
            }
            view.exceptionUses = counts;
        }
        return view;
    }
    /** This store's connection, key prefix and calls, for the guard's runs and cancel leases (docs/guard.md). */
    share() {
        return {
            redis: this.redis,
            keys: this.keys,
            calls: {
                read: (what, run) => this.call(what, run),
                // Writes as every other update: then WAIT for REDIS_WAIT_REPLICAS, so a failover cannot lose a lease or a stop.
                write: (what, queue) => this.call(what, () => this.update(queue)),
            },
        };
    }
    async takeExceptionUses(uses, _now) {
        const keys = uses.map((u) => this.keys.exceptionUses(u.name));
        const args = uses.map((u) => String(u.maxUses));
        const result = await this.call('update', () => this.update((pipe) => pipe.takeExceptionUses(keys.length, ...keys, ...args)));
        if (result === 'taken')
            return { taken: true };
        // Not taken: the script answers every exception's count, in the order of `uses` (an array reply).
        if (!Array.isArray(result) || result.length !== uses.length || !result.every((n) => Number.isSafeInteger(n)))
            throw new state_store_1.StateUnavailableError(`Redis answered ${JSON.stringify(result)} to taking exception uses`);
        return { taken: false, counts: Object.fromEntries(uses.map((u, i) => [u.name, result[i]])) };
    }
    health() {
        const available = !this.unavailable();
        return {
            store: 'redis',
            available,
            ...(available ? {} : { message: this.notConnected() }),
            ...(this.eviction ? { eviction: this.eviction } : {}),
        };
    }
    /** Reads maxmemory and maxmemory-policy of every primary (INFO memory); logged once when it changes. */
    async readEviction() {
        if (this.redis.status !== 'ready')
            return;
        let said;
        try {
            const primaries = this.redis instanceof ioredis_1.Cluster ? this.redis.nodes('master') : [this.redis];
            said = (0, redis_eviction_1.evictionRisk)(await Promise.all(primaries.map((node) => node.info('memory'))));
        }
        catch (err) {
            said = `whether Redis evicts what the gate keeps cannot be read (INFO memory: ${err.message})`;
        }
        if (said !== undefined && said !== this.eviction)
            this.opts.logger?.warn(`state: ${said}`);
        this.eviction = said;
    }
    async close() {
        clearInterval(this.evictionTimer);
        this.closed = true;
        this.redis.disconnect();
    }
}
exports.RedisStateStore = RedisStateStore;
//# sourceMappingURL=redis-state-store.js.map