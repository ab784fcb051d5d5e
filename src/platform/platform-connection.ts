import type { Registry } from 'prom-client';
import type { Logger } from '../common/logger';
import { MEMORY_RESTART_REBUILT } from '../state/memory-state-store';
import type { StateStore, StateView } from '../state/state-store';
import { EnvironmentDirectory } from './environment-directory';
import { TeamDirectory } from './team-directory';
import { createPlatformClient } from './platform-client';
import type { PlatformConfig } from './platform-config';
import { createPlatformMetrics } from './platform-metrics';
import { PlatformSync, type SyncState } from './platform-sync';
import { cancelExecution, type CancelOutcome } from './cancel-execution';

export interface PlatformConnectionDeps {
  store: StateStore;
  logger: Logger;
  registry: Registry;
  /** The current bundle's longest cool-down/quota window (history-window.ts). */
  historyMs: () => number;
}

/** What /readyz shows of the platform: informative only, never a reason to turn unready (an outage must not take the gate down). */
export interface PlatformHealth {
  url: string;
  synced: boolean;
  environments: SyncState & { count: number };
  killswitch: SyncState;
  executions: SyncState;
}

/** The Platform API as the service uses it: one client (one budget), the environment names, the sync. */
export interface PlatformConnection {
  directory: EnvironmentDirectory;
  /** The members of the teams createdByTeams scopes name, cached like the environment names. */
  teams: TeamDirectory;
  sync: PlatformSync;
  /** The first sync (start-up), then periodic syncs; resolves when the first one ends or `boundMs` passes. */
  start(boundMs: number): Promise<void>;
  health(): PlatformHealth;
  /** The state store as preflights should read it: an in-memory store whose kill switch the platform has not confirmed since start-up cannot vouch that it is disengaged. */
  confirmingStore(store: StateStore): StateStore;
  /** Cancels a running execution within `withinMs` (the guard, docs/guard.md), in the same client budget as every other call. */
  cancel(executionId: string, withinMs: number): Promise<CancelOutcome>;
  close(): void;
}

const UNCONFIRMED =
  'the emergency stop cannot be checked: this replica keeps state in memory, restarted, and has not read the kill switch from the Steadybit Platform API yet';

export function connectPlatform(config: PlatformConfig, deps: PlatformConnectionDeps): PlatformConnection {
  const metrics = createPlatformMetrics(deps.registry);
  const client = createPlatformClient(config, { metrics });
  const directory = new EnvironmentDirectory(
    client,
    { maxAgeMs: config.nameMaxAgeMs, waitMs: config.preflightWaitMs, minGapMs: 10_000 },
    metrics,
  );
  const teams = new TeamDirectory(client, {
    refreshMs: config.environmentsRefreshMs,
    maxAgeMs: config.nameMaxAgeMs,
    waitMs: config.preflightWaitMs,
    minGapMs: 10_000,
  });
  const sync = new PlatformSync({
    client,
    store: deps.store,
    directory,
    logger: deps.logger,
    metrics,
    intervalMs: config.syncIntervalMs,
    environmentsRefreshMs: config.environmentsRefreshMs,
    historyMs: deps.historyMs,
  });
  return {
    directory,
    teams,
    sync,
    async start(boundMs) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        sync.start(),
        new Promise<void>((r) => {
          timer = setTimeout(r, boundMs);
        }),
      ]);
      clearTimeout(timer);
    },
    health() {
      const s = sync.status();
      return {
        url: config.url,
        synced:
          s.killswitch.syncedAt !== undefined &&
          s.executions.syncedAt !== undefined &&
          s.environments.syncedAt !== undefined,
        environments: { ...s.environments, count: directory.status().environments },
        killswitch: s.killswitch,
        executions: s.executions,
      };
    },
    confirmingStore(store) {
      if (store.kind !== 'memory') return store;
      const read = async (...args: Parameters<StateStore['read']>): Promise<StateView> => {
        const view = await store.read(...args);
        if (view.emergencyStop && !view.emergencyStop.engaged && !sync.killswitchConfirmed())
          view.emergencyStop = { engaged: false, unconfirmed: UNCONFIRMED };
        return view;
      };
      return {
        kind: store.kind,
        apply: (e, now) => store.apply(e, now),
        read,
        takeExceptionUses: (uses, now) => store.takeExceptionUses(uses, now),
        health: () => ({ ...store.health(), restart: MEMORY_RESTART_REBUILT }),
        close: () => store.close(),
      };
    },
    cancel: (executionId, withinMs) => cancelExecution(client, executionId, Date.now() + withinMs),
    close: () => sync.stop(),
  };
}
