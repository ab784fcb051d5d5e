import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { createApp, type App } from './create-app';
import type { Config } from './config';
import { createDecisionArchive } from '../archive/create-decision-archive';
import { createGuardStore } from '../guard/create-guard-store';
import { RunsInProgress } from '../guard/runs-in-progress';
import { overlapSettler } from '../guard/settle-overlap';
import { forgetEndedRuns } from '../guard/forget-ended-runs';
import { createGuardMetrics } from '../guard/guard-metrics';
import type { OnStop } from '../guard/guard-stop';
import { guardsRuns } from '../guard/guard-view';
import { KnownRuns } from '../guard/known-runs';
import { RunGuard } from '../guard/run-guard';
import { UNSIGNED_WARNING } from './health-routes';
import {
  policyRejectedNotification,
  runStoppedNotification,
  signalSilentNotification,
} from '../notify/event-notifications';
import { createNotifier } from '../notify/notifier';
import { notifyingStateStore } from '../notify/notifying-state-store';
import { createAuditLog } from '../observability/audit-log';
import { buildInfo, registerBuildInfo } from '../observability/build-info';
import { ignoredFilesReporter } from '../observability/ignored-files-report';
import type { Logger } from '../common/logger';
import { createMetrics } from '../observability/metrics';
import { reloadReport } from '../observability/reload-report';
import { historyWindowMs } from '../platform/history-window';
import { connectPlatform } from '../platform/platform-connection';
import { readPlaygroundPage } from '../playground/playground-page';
import { factGatherer } from '../policy/engine/fact-gatherer';
import { builtInPolicies, policiesFromFiles } from '../policy/compile/built-in-policies';
import { formatProblem, PolicyLoadError } from '../policy/compile/load-error';
import { isStarterPolicyDir, STARTER_POLICIES_NOTICE } from '../policy/loading/starter-policies';
import { createPolicyReloader, type ReloadOutcome } from '../policy/runtime/policy-reloader';
import { type LoadTrigger, PolicyStore } from '../policy/runtime/policy-store';
import { serviceSignalSource } from '../signals/service-signal-source';
import { secretFile } from '../signature/webhook-secrets';
import { createStateStore } from '../state/create-state-store';
import { guardrailState } from '../state/guardrail-state';
import { checkNeedsAtStart } from './check-needs';
import { serviceCapabilities, type ServiceParts } from './service-capabilities';
import { serviceFactSources } from './service-fact-sources';

/** The longest start-up waits for the first sync with the Platform API before listening. */
const PLATFORM_STARTUP_MS = 10_000;

/** What a caller of startServer may plug in. */
export interface ServerHooks {
  /** Told of every run the guard stops (notifications subscribe here); docs/guard.md. */
  onStop?: OnStop;
}

/** The service, built and checked, not yet listening (start-server.ts listens, watches and shuts it down). */
export interface Service {
  app: App;
  store: PolicyStore;
  /** What the `listening` line says of the policy set, as /readyz counts it. */
  policies: { revision?: string; policies: number; policiesFromFiles?: number; builtInPolicies: string[] };
  /** Reloads POLICY_DIR now; a rejected set is told (notifications) and the one in use keeps serving. */
  reload(trigger: LoadTrigger): ReloadOutcome;
  /** Once listening: the guard's ticks start. */
  start(): void;
  /** The first step of a shutdown: no more syncs with the Platform API. */
  stopSyncing(): void;
  /** Once the server closed: the guard, the audit log, the archive (by `deadlineMs`), notifications, the state store. */
  close(deadlineMs: number): Promise<void>;
}

/**
 * The composition root (docs/decisions/0019-composition-root.md): builds every part of the service
 * from its config, declares the capabilities they make (service-capabilities.ts), checks what the
 * policy set needs of them (a `warning` logged, an `error` refuses to start), and builds the app
 * from the declarations. Throws PolicyLoadError on an invalid set.
 */
export async function buildService(
  config: Config,
  logger: Logger,
  deps: { hooks?: ServerHooks; isShuttingDown: () => boolean },
): Promise<Service> {
  const metrics = createMetrics();
  registerBuildInfo(metrics.registry, buildInfo(config.revision));
  const store = new PolicyStore();
  const builtIns = builtInPolicies(config.state.emergencyStop);
  const events = reloadReport({ metrics, logger, builtIns: builtIns.map((p) => p.name) });
  // The store holds the set served: each load is assembled once, with the built-in policies, for the
  // guard and every route (docs/decisions/0032).
  const reloader = createPolicyReloader({ dir: config.policyDir, store, events, builtIns });
  const first = reloader.reload('startup');
  if (first.result === 'failure') throw new PolicyLoadError(first.problems);
  const bundle = store.current();
  const warnIgnoredFiles = ignoredFilesReporter(config.policyDir, logger);
  warnIgnoredFiles(reloader.filesNotLoaded());
  if (config.secrets.length === 0) logger.warn(UNSIGNED_WARNING);
  const starterPolicies = isStarterPolicyDir(config.policyDir);
  if (starterPolicies) logger.warn(STARTER_POLICIES_NOTICE, { policyDir: config.policyDir });

  const audit = createAuditLog(config.audit);
  const notifier = createNotifier(config.notify, {
    registry: metrics.registry,
    logger,
    redaction: config.audit.redact,
  });
  if (config.notify.targets.length > 0)
    logger.info('notifications', {
      targets: config.notify.targets.map((t) => ({ name: t.name, type: t.type, events: t.filter.events })),
    });
  const stateStore = await createStateStore(config.state, new Date(), logger);
  const guardRuns = createGuardStore(stateStore);
  const knownRuns = new KnownRuns();
  // Every event reaches the state through this: a run that ends is forgotten by the guard, and an
  // emergency stop change is told as the store applies it (POST /events and the Platform API sync).
  const eventStore = notifyingStateStore(forgetEndedRuns(stateStore, guardRuns, logger, knownRuns), notifier);
  const platform =
    config.platform &&
    connectPlatform(config.platform, {
      store: eventStore,
      logger,
      registry: metrics.registry,
      historyMs: () => historyWindowMs(store.current()),
    });
  // noOverlap rules read the runs the guard keeps (every replica's, with Redis), and are decided one at a time.
  const inProgress = new RunsInProgress(guardRuns);
  const state = {
    ...guardrailState(config.state, platform ? platform.confirmingStore(eventStore) : eventStore),
    inProgress,
  };
  const settleOverlap = overlapSettler({ store: guardRuns, inProgress, executionTtlMs: config.state.executionTtlMs });
  logger.info('guardrail state', {
    store: stateStore.kind,
    emergencyStopPolicy: config.state.emergencyStop,
    onUnavailable: config.state.onUnavailable,
  });
  if (platform) {
    // The token is never logged; the address and the sync's outcome are.
    await platform.start(PLATFORM_STARTUP_MS);
    logger.info('Steadybit Platform API', { ...platform.health() });
  }
  const archive =
    config.archive.kind === 'off' ? undefined : createDecisionArchive(config.archive, { logger, metrics });
  if (config.archive.kind !== 'off')
    logger.info('decision archive', {
      path: config.archive.path,
      ...(config.archive.kind === 's3'
        ? { uploadTo: `s3://${config.archive.location.bucket}/${config.archive.location.prefix}` }
        : {}),
      maskAttributes: config.archive.maskAttributes,
    });
  const facts: ServiceParts = {
    state,
    signals: serviceSignalSource(config.signals, { registry: metrics.registry, logger, needs: bundle?.needs }),
    platform: platform && {
      directory: platform.directory,
      teams: platform.teams,
      health: () => platform.health(),
      cancels: true,
    },
  };
  // The guard asks the same sources, in the same order, as a preflight, its live signals read fresh at each tick.
  const sources = serviceFactSources(serviceCapabilities(facts, logger));
  // One served set for the guard and every route: the store's, assembled with the built-in policies.
  const served = store;
  const guard = new RunGuard({
    policies: served,
    runs: guardRuns,
    known: knownRuns,
    gather: factGatherer(sources.guard),
    nextTick: sources.nextTick,
    cancel: platform ? (id, withinMs) => platform.cancel(id, withinMs) : undefined,
    environments: platform ? platform.directory : undefined,
    logger,
    metrics: createGuardMetrics(metrics.registry),
    audit,
    archive,
    clock: () => new Date(),
    newId: randomUUID,
    replica: `${hostname()}:${process.pid}`,
    intervalMs: config.guard.intervalMs,
    leaseMs: config.guard.leaseMs,
    executionTtlMs: config.state.executionTtlMs,
    // Every stop is told (docs/notifications.md), then handed to whoever else subscribed.
    onStop: (stop) => {
      notifier.notify(runStoppedNotification(stop, config.notify.runUrl));
      deps.hooks?.onStop?.(stop);
    },
    onReport: (report) => notifier.notify(signalSilentNotification(report, config.notify.runUrl)),
  });
  const capabilities = serviceCapabilities(
    {
      ...facts,
      settleOverlap,
      archive,
      // Without targets the notifier tells no one: not a capability of this service.
      notifier: config.notify.targets.length > 0 ? notifier : undefined,
      guard,
      // Read once at start: a PLAYGROUND=on image without the built page fails here, naming the fix.
      playground: config.playground ? readPlaygroundPage() : undefined,
    },
    logger,
  );
  // What the policy set asks that this service lacks: decided here, for every capability alike.
  checkNeedsAtStart(capabilities, bundle, logger);
  if (bundle && guardsRuns(bundle) && platform) {
    // The Platform API cannot tell a token's permissions without side effects: the first cancel tells (cancel-permission.ts).
    const { message, ...health } = guard.health();
    logger.info(`guard: runs in progress are judged again; whether the token may cancel them is ${message}`, {
      ...health,
    });
  }
  const app = createApp({
    store,
    served,
    secrets: config.secretFile ? secretFile(config.secretFile, config.secrets, { logger }) : config.secrets,
    logger,
    metrics,
    capabilities,
    options: {
      audit,
      bodyLimit: config.bodyLimit,
      bodyBudget: config.bodyBudget,
      isShuttingDown: deps.isShuttingDown,
      policySync: reloader.sync,
      starterPolicies,
    },
  });
  return {
    app,
    store,
    policies: {
      revision: bundle?.revision,
      // As /readyz counts them: the built-in policies too.
      policies: bundle?.policies.length ?? 0,
      policiesFromFiles: bundle && policiesFromFiles(bundle),
      builtInPolicies: builtIns.map((p) => p.name),
    },
    // A rejected reload (watcher or SIGHUP) is told; the first load's failure stops the start instead.
    reload(trigger) {
      const outcome = reloader.reload(trigger);
      warnIgnoredFiles(reloader.filesNotLoaded());
      if (outcome.result === 'failure') {
        const problems = outcome.problems.filter((p) => p.severity === 'error').map(formatProblem);
        notifier.notify(policyRejectedNotification(trigger, problems, outcome.revisionInUse, new Date()));
      }
      return outcome;
    },
    start: () => guard.start(),
    stopSyncing: () => platform?.close(),
    async close(deadlineMs) {
      await guard.stop();
      audit.close();
      await archive?.close(deadlineMs);
      // What waits for its dedupe window or a retry is sent now, within a few seconds at most.
      await notifier.close(Math.min(5000, config.shutdownTimeoutMs));
      await stateStore.close();
    },
  };
}
