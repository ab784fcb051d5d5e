import Redis, { type Result } from 'ioredis';
import { APPLY_EXECUTION, APPLY_KILLSWITCH } from './redis-scripts';
import { END_STATES, type EndState, type StateEvent } from './state-event';
import {
  HISTORY_MS, recordRetentionMs, StateUnavailableError,
  type ApplyOutcome, type RunsByScope, type StateQuery, type StateStore, type StateTiming, type StateView, type StoreHealth,
} from './state-store';

declare module 'ioredis' {
  interface RedisCommander<Context> {
    applyKillswitch(...args: string[]): Result<string, Context>;
    applyExecution(...args: string[]): Result<string, Context>;
  }
}

export interface RedisStoreOptions extends StateTiming {
  url: string;
  keyPrefix: string;
  /** Every command answers or fails within this; a preflight never waits toward Steadybit's 55 s. */
  timeoutMs: number;
}

const OUTCOMES: readonly ApplyOutcome[] = ['applied', 'duplicate', 'stale', 'unmatched'];

/** `[member, score, member, score, ...]` -> runs; ended members are `id|STATE`. */
function runs(flat: string[]): RunsByScope[string] {
  const out = [];
  for (let i = 0; i < flat.length; i += 2) {
    const [id, state] = flat[i].split('|');
    out.push({ id, atMs: Number(flat[i + 1]), ...(END_STATES.includes(state as EndState) ? { state: state as EndState } : {}) });
  }
  return out;
}

/**
 * The state in Redis, shared by every replica. Updates are Lua scripts (atomic). Commands never
 * queue while Redis is away: they fail at once (or after timeoutMs), and the client reconnects by
 * itself, so the service recovers when Redis returns.
 */
export class RedisStateStore implements StateStore {
  readonly kind = 'redis' as const;
  private readonly redis: Redis;
  private lastError: string | undefined;

  constructor(private readonly opts: RedisStoreOptions) {
    this.redis = new Redis(opts.url, {
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
      commandTimeout: opts.timeoutMs,
      connectTimeout: opts.timeoutMs,
      retryStrategy: (times) => Math.min(100 * times, 1000),
    });
    this.redis.on('error', (err: Error) => { this.lastError = err.message; });
    this.redis.on('ready', () => { this.lastError = undefined; });
    this.redis.defineCommand('applyKillswitch', { numberOfKeys: 0, lua: APPLY_KILLSWITCH });
    this.redis.defineCommand('applyExecution', { numberOfKeys: 0, lua: APPLY_EXECUTION });
  }

  private async call<T>(what: string, run: () => Promise<T>): Promise<T> {
    if (this.redis.status !== 'ready') throw new StateUnavailableError(`Redis is not connected (${this.redis.status}${this.lastError ? `: ${this.lastError}` : ''})`);
    try {
      return await run();
    } catch (err) {
      throw new StateUnavailableError(`Redis ${what} failed: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async apply(event: StateEvent, now: Date): Promise<ApplyOutcome> {
    const { keyPrefix: p } = this.opts;
    const seenTtl = String(2 * this.opts.eventToleranceMs);
    const result = await this.call('update', () => {
      if (event.kind === 'killswitch') {
        return this.redis.applyKillswitch(p, event.dedupeKey, seenTtl, event.engaged ? 'engaged' : 'disengaged', event.changedAt.key, event.changedAt.text, event.by, event.endsEngagementAt?.key ?? '');
      }
      const nowMs = now.getTime();
      return this.redis.applyExecution(
        p, event.dedupeKey, seenTtl, event.phase, event.id, event.time.key, String(event.time.ms), event.endState ?? '',
        String(recordRetentionMs(this.opts)), String(nowMs - this.opts.executionTtlMs), String(nowMs - HISTORY_MS), String(HISTORY_MS),
        ...event.scopes,
      );
    });
    if (!OUTCOMES.includes(result as ApplyOutcome)) throw new StateUnavailableError(`Redis update answered "${result}"`);
    return result as ApplyOutcome;
  }

  async read(query: StateQuery, now: Date): Promise<StateView> {
    const p = this.opts.keyPrefix;
    const nowMs = now.getTime();
    const wanted: Array<[keyof Omit<StateView, 'emergencyStop'>, number]> = [];
    if (query.running) wanted.push(['running', nowMs - this.opts.executionTtlMs]);
    if (query.endedSinceMs !== undefined) wanted.push(['ended', query.endedSinceMs]);
    if (query.startedSinceMs !== undefined) wanted.push(['started', query.startedSinceMs]);
    const replies = await this.call('read', async () => {
      const tx = this.redis.multi();
      if (query.emergencyStop) tx.hgetall(`${p}killswitch`);
      for (const [kind, since] of wanted) for (const scope of query.scopes) tx.zrangebyscore(`${p}${kind}:${scope}`, since, '+inf', 'WITHSCORES');
      const out = await tx.exec();
      if (!out) throw new Error('transaction aborted');
      return out.map(([err, value]) => { if (err) throw err; return value; });
    });
    const view: StateView = {};
    let i = 0;
    if (query.emergencyStop) {
      const ks = replies[i++] as Record<string, string>;
      view.emergencyStop = ks.engaged === '1' ? { engaged: true, by: ks.engagedBy, since: ks.engagedAtText } : { engaged: false };
    }
    for (const [kind] of wanted) {
      const byScope: RunsByScope = {};
      for (const scope of query.scopes) byScope[scope] = runs(replies[i++] as string[]);
      view[kind] = byScope;
    }
    return view;
  }

  health(): StoreHealth {
    const available = this.redis.status === 'ready';
    return { store: 'redis', available, ...(available ? {} : { message: `Redis is not connected (${this.redis.status})${this.lastError ? `: ${this.lastError}` : ''}` }) };
  }

  async close(): Promise<void> {
    this.redis.disconnect();
  }
}
