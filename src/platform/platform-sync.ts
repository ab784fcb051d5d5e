import type { Logger } from '../common/logger';
import { END_STATES } from '../state/state-event';
import type { StateStore } from '../state/state-store';
import type { EnvironmentDirectory } from './environment-directory';
import type { PlatformClient } from './platform-client';
import { getKillswitch, searchExecutions } from './platform-endpoints';
import type { PlatformMetrics, SyncName } from './platform-metrics';
import { executionEventsFromApi, killswitchEventFromApi, RUNNING_STATES } from './platform-state-events';

export interface SyncDeps {
  client: PlatformClient;
  store: StateStore;
  directory: EnvironmentDirectory;
  logger: Logger;
  metrics?: PlatformMetrics;
  intervalMs: number;
  environmentsRefreshMs: number;
  /** How far back cool-down and quota rules look (the bundle's longest window); 0 when none does. */
  historyMs: () => number;
  now?: () => number;
}

/** One sync's state for /readyz: when it last succeeded and why the last try failed. */
export interface SyncState {
  syncedAt?: string;
  ageSeconds?: number;
  lastError?: string;
}

/** Time one sync may take, retries included: well under the sync interval's usual 30 s. */
const SYNC_DEADLINE_MS = 20_000;

/**
 * Keeps the state in line with the platform: at start-up and every interval, the kill switch
 * (`GET /api/killswitch`) and the runs (`POST /api/experiments/executions`: those running, and those
 * ended since the last sync or within the longest cool-down/quota window) enter the state store as
 * events (platform-state-events.ts); the environment list is refreshed every `environmentsRefreshMs`.
 * Webhook events keep applying at once in between. A failed sync is logged and tried again at the
 * next interval: the state keeps what it had.
 */
export class PlatformSync {
  private readonly now: () => number;
  private readonly state = new Map<SyncName, { atMs?: number; lastError?: string }>();
  /** Events this process applied in the previous sync: not sent to the store again. */
  private applied = new Set<string>();
  /** The earliest end time the ended-runs search has covered, and when the last one was sent. */
  private coveredFromMs?: number;
  private lastEndedSearchMs?: number;
  private timers: NodeJS.Timeout[] = [];
  private running?: Promise<void>;

  constructor(private readonly deps: SyncDeps) {
    this.now = deps.now ?? Date.now;
  }

  /** Syncs once now (the start-up sync; it resolves even when the platform is down), then keeps syncing. */
  start(): Promise<void> {
    const first = this.syncOnce();
    this.timers.push(setInterval(() => void this.syncOnce(), this.deps.intervalMs).unref());
    this.timers.push(setInterval(() => void this.syncEnvironments(), this.deps.environmentsRefreshMs).unref());
    return first;
  }

  stop(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
  }

  /** Environments first (the runs' scopes need their ids), then the kill switch and the runs. One at a time. */
  syncOnce(): Promise<void> {
    this.running ??= (async () => {
      if (this.state.get('environments')?.atMs === undefined) await this.syncEnvironments();
      await this.syncKillswitch();
      await this.syncExecutions();
    })().finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /** Whether the platform's kill switch has been read since start-up. */
  killswitchConfirmed(): boolean {
    return this.state.get('killswitch')?.atMs !== undefined;
  }

  status(): Record<SyncName, SyncState> {
    const one = (name: SyncName): SyncState => {
      const s = this.state.get(name) ?? {};
      return {
        ...(s.atMs === undefined
          ? {}
          : { syncedAt: new Date(s.atMs).toISOString(), ageSeconds: Math.round((this.now() - s.atMs) / 1000) }),
        ...(s.lastError ? { lastError: s.lastError } : {}),
      };
    };
    return { environments: one('environments'), killswitch: one('killswitch'), executions: one('executions') };
  }

  private succeeded(name: SyncName, atMs: number): void {
    this.state.set(name, { atMs });
    this.deps.metrics?.synced(name, atMs);
  }

  private failed(name: SyncName, message: string): void {
    const s = this.state.get(name) ?? {};
    if (s.lastError !== message)
      this.deps.logger.warn(`Steadybit Platform API: ${name} sync failed; keeping what the state has`, {
        sync: name,
        error: message,
      });
    this.state.set(name, { ...s, lastError: message });
  }

  async syncEnvironments(): Promise<void> {
    const res = await this.deps.directory.refresh();
    if (res.ok) this.succeeded('environments', this.now());
    else this.failed('environments', res.failure.message);
  }

  private async syncKillswitch(): Promise<void> {
    const sentAt = this.now();
    const res = await getKillswitch(this.deps.client, sentAt + SYNC_DEADLINE_MS);
    if (!res.ok) return this.failed('killswitch', res.failure.message);
    try {
      // "Not engaged" ends the engagement the store holds now (if any): read it first.
      const held = res.value.active
        ? undefined
        : (await this.deps.store.read({ emergencyStop: true, running: false, scopes: [] }, new Date(this.now())))
            .emergencyStop;
      if (held?.engaged && held.since === undefined)
        this.deps.logger.warn(
          'the state holds an engaged emergency stop without its time; the Platform API answer "not engaged" cannot end it, an event must',
        );
      const outcome = await this.deps.store.apply(
        killswitchEventFromApi(res.value, sentAt, held?.engaged ? held.since : undefined),
        new Date(this.now()),
      );
      if (outcome === 'applied')
        this.deps.logger.info('emergency stop set from the Steadybit Platform API', {
          engaged: res.value.active,
          engagedAt: res.value.engaged,
        });
      this.succeeded('killswitch', sentAt);
    } catch (err) {
      this.failed(
        'killswitch',
        `the state store refused the kill switch: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }

  private async syncExecutions(): Promise<void> {
    const sentAt = this.now();
    const deadline = sentAt + SYNC_DEADLINE_MS;
    const running = await searchExecutions(this.deps.client, { states: [...RUNNING_STATES] }, deadline);
    if (!running.ok) return this.failed('executions', `running runs: ${running.failure.message}`);
    // Ended runs free capacity (a lost `completed` event) and feed cool-downs and quotas.
    const want = sentAt - Math.max(this.deps.historyMs(), 2 * this.deps.intervalMs);
    // The whole window the first time (or when a reload made it longer), else since the last search (with overlap).
    const fromMs =
      this.coveredFromMs === undefined || want < this.coveredFromMs || this.lastEndedSearchMs === undefined
        ? want
        : Math.max(want, this.lastEndedSearchMs - 2 * this.deps.intervalMs);
    const ended = await searchExecutions(
      this.deps.client,
      { states: [...END_STATES], endedFrom: new Date(fromMs).toISOString() },
      deadline,
    );
    if (!ended.ok) return this.failed('executions', `ended runs: ${ended.failure.message}`);
    const idsOf = (name: string) => this.deps.directory.idsOf(name);
    const events = [...running.value, ...ended.value].flatMap((item) => executionEventsFromApi(item, idsOf));
    const applied = new Set<string>();
    try {
      for (const event of events) {
        applied.add(event.dedupeKey);
        if (!this.applied.has(event.dedupeKey)) await this.deps.store.apply(event, new Date(this.now()));
      }
    } catch (err) {
      return this.failed(
        'executions',
        `the state store refused a run: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    this.applied = applied;
    this.coveredFromMs = Math.min(this.coveredFromMs ?? fromMs, fromMs);
    this.lastEndedSearchMs = sentAt;
    this.succeeded('executions', sentAt);
  }
}
