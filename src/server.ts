import { readPlaygroundPage } from './playground/playground-page';
import { secretFile } from './signature/webhook-secrets';
import type { Server } from 'node:http';
import { createApp } from './app';
import { buildInfo, registerBuildInfo } from './observability/build-info';
import { isStarterPolicyDir, STARTER_POLICIES_NOTICE } from './policy/loading/starter-policies';
import type { Config } from './config';
import { randomUUID } from 'node:crypto';
import { createHttpServer } from './http/create-http-server';
import { preflightIdHeader } from './http/preflight-route';
import { gracefulCloser } from './http/graceful-close';
import { UNSIGNED_WARNING } from './http/health-routes';
import { createLogger, type Logger } from './observability/logger';
import { createMetrics } from './observability/metrics';
import { createAuditLog } from './observability/audit-log';
import { createDecisionArchive } from './archive/create-decision-archive';
import { PolicyLoadError } from './policy/loading/load-error';
import { createPolicyReloader, type ReloadOutcome } from './policy/runtime/policy-reloader';
import { reloadReport } from './observability/reload-report';
import { ignoredFilesReporter } from './observability/ignored-files-report';
import { PolicyStore, type LoadTrigger } from './policy/runtime/policy-store';
import { watchPolicyDir, type PolicyWatcher } from './policy/runtime/policy-watcher';
import { createStateStore, keepsExceptionUses } from './state/create-state-store';
import { USES_NOT_KEPT } from './state/uncounted-exception-uses';
import { guardrailState } from './state/guardrail-state';
import { historyWindowMs } from './platform/history-window';
import { connectPlatform } from './platform/platform-connection';
import { assembleFactSources, type ServiceFactSources } from './fact-sources';
import { createNotifier } from './notify/notifier';
import { notifyingStateStore } from './notify/notifying-state-store';
import { policyRejectedNotification, runStoppedNotification } from './notify/event-notifications';
import { formatProblem } from './policy/loading/load-error';
import { hostname } from 'node:os';
import { createGuardStore } from './guard/create-guard-store';
import { forgetEndedRuns } from './guard/forget-ended-runs';
import { KnownRuns } from './guard/known-runs';
import { createGuardMetrics } from './guard/guard-metrics';
import { guardsRuns } from './guard/guard-view';
import { NO_PLATFORM, RunGuard, type RunGuardDeps } from './guard/run-guard';
import type { OnStop } from './guard/guard-stop';
import { servedPolicies } from './policy/runtime/served-policies';
import { builtInPolicies } from './policy/loading/built-in-policies';
import { factGatherer } from './policy/engine/gather-facts';

/** The longest start-up waits for the first sync with the Platform API before listening. */
const PLATFORM_STARTUP_MS = 10_000;

export interface RunningServer {
  server: Server;
  store: PolicyStore;
  logger: Logger;
  /** Reloads POLICY_DIR now (SIGHUP); an invalid set is rejected and the one in use keeps serving. */
  reload(trigger: LoadTrigger): ReloadOutcome;
  /** Stops accepting, lets requests in flight finish, then resolves. */
  shutdown(): Promise<void>;
}

/** What a caller of startServer may plug in. */
export interface ServerHooks {
  /** Told of every run the guard stops (notifications subscribe here); docs/guard.md. */
  onStop?: OnStop;
}

/** Loads the policy set and starts listening. Throws PolicyLoadError on an invalid set. */
export async function startServer(
  config: Config,
  logger: Logger = createLogger(config.logLevel),
  hooks: ServerHooks = {},
): Promise<RunningServer> {
  const metrics = createMetrics();
  registerBuildInfo(metrics.registry, buildInfo(config.revision));
  const store = new PolicyStore();
  const builtIns = builtInPolicies(config.state.emergencyStop);
  const events = reloadReport({ metrics, logger, builtIns: builtIns.map((p) => p.name) });
  const reloader = createPolicyReloader({ dir: config.policyDir, store, events });
  const first = reloader.reload('startup');
  if (first.result === 'failure') throw new PolicyLoadError(first.problems);
  const bundle = store.current();
  const warnIgnoredFiles = ignoredFilesReporter(config.policyDir, logger);
  warnIgnoredFiles();
  if (config.secrets.length === 0) logger.warn(UNSIGNED_WARNING);
  const starterPolicies = isStarterPolicyDir(config.policyDir);
  if (starterPolicies) logger.warn(STARTER_POLICIES_NOTICE, { policyDir: config.policyDir });

  let shuttingDown = false;
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
  const state = guardrailState(config.state, platform ? platform.confirmingStore(eventStore) : eventStore);
  logger.info('guardrail state', {
    store: stateStore.kind,
    emergencyStopPolicy: config.state.emergencyStop,
    onUnavailable: config.state.onUnavailable,
  });
  const counted = bundle?.exceptions.filter((e) => e.maxUses !== undefined).map((e) => e.name) ?? [];
  if (counted.length > 0 && !keepsExceptionUses(config.state))
    logger.warn(`exceptions with maxUses do not waive any run: ${USES_NOT_KEPT}`, { exceptions: counted });
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
  // The state store's source is added by createApp, first; these are asked after it.
  const factSources = assembleFactSources({
    logger,
    signals: { config: config.signals, registry: metrics.registry, needs: bundle?.needs },
    platform: platform || undefined,
  });
  // A rejected reload (watcher or SIGHUP) is told; the first load's failure stops the start instead.
  const reload = (trigger: LoadTrigger): ReloadOutcome => {
    const outcome = reloader.reload(trigger);
    warnIgnoredFiles();
    if (outcome.result === 'failure') {
      const problems = outcome.problems.filter((p) => p.severity === 'error').map(formatProblem);
      notifier.notify(policyRejectedNotification(trigger, problems, outcome.revisionInUse, new Date()));
    }
    return outcome;
  };
  const guard = new RunGuard({
    policies: servedPolicies(store, builtIns),
    runs: guardRuns,
    known: knownRuns,
    ...guardFacts(state, factSources, logger),
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
      hooks.onStop?.(stop);
    },
  });
  if (bundle && guardsRuns(bundle)) {
    if (platform) {
      // The Platform API cannot tell a token's permissions without side effects: the first cancel tells (cancel-permission.ts).
      const { message, ...health } = guard.health();
      logger.info(`guard: runs in progress are judged again; whether the token may cancel them is ${message}`, {
        ...health,
      });
    } else logger.warn(`guard: policies ask to guard runs in progress, but ${NO_PLATFORM}`);
  }
  const app = createApp({
    store,
    secrets: config.secrets,
    secretFile: config.secretFile ? secretFile(config.secretFile, config.secrets, { logger }) : undefined,
    logger,
    metrics,
    audit,
    state,
    archive,
    bodyLimit: config.bodyLimit,
    bodyBudget: config.bodyBudget,
    isShuttingDown: () => shuttingDown,
    platformHealth: platform ? () => platform.health() : undefined,
    policySync: reloader.sync,
    starterPolicies,
    factSources: factSources.preflight,
    notifier,
    guard,
    // Read once at start: a PLAYGROUND=on image without the built page fails here, naming the fix.
    playground: config.playground ? readPlaygroundPage() : undefined,
  });
  const server = await new Promise<Server>((resolve, reject) => {
    const s = createHttpServer(app, { headersFor: preflightIdHeader(randomUUID) }).listen(
      config.port,
      config.host,
      () => resolve(s),
    );
    s.once('error', reject);
  });
  const closeGracefully = gracefulCloser(server);
  guard.start();
  logger.info('listening', {
    host: config.host,
    port: addressPort(server),
    policyDir: config.policyDir,
    revision: bundle?.revision,
    // As /readyz counts them: the built-in policies too.
    policies: (bundle?.policies.length ?? 0) + builtIns.length,
    policiesFromFiles: bundle?.policies.length,
    builtInPolicies: builtIns.map((p) => p.name),
    signaturesEnforced: config.secrets.length > 0,
  });

  let watcher: PolicyWatcher | undefined;
  if (config.policyWatch) {
    watcher = watchPolicyDir(config.policyDir, () => reload('watch'), {
      debounceMs: config.policyReloadDebounceMs,
      onError: (err) => logger.error('policy directory watch failed; SIGHUP still reloads', { error: String(err) }),
      onRewatch: (why) =>
        logger.warn(`policy directory ${why === 'back' ? 'is back' : 'was replaced'}: watching it anew and reloading`, {
          policyDir: config.policyDir,
        }),
    });
    // Not awaited: the caller installs its SIGTERM handling as soon as the server listens. A change
    // made between the first load and the watch starting is caught by one more look once it is
    // ready, part of the start-up (found unchanged, it leaves /readyz's lastLoad the start-up's).
    void watcher.ready.then(() => {
      if (!shuttingDown) reload('startup');
    });
  }

  const shutdown = async () => {
    shuttingDown = true;
    // Everything, the decision archive's last upload included, is done by this time.
    const deadlineMs = Date.now() + config.shutdownTimeoutMs;
    platform?.close();
    // Stop accepting at once; requests in flight finish while the watcher closes.
    const closed = closeGracefully(config.shutdownTimeoutMs);
    await watcher?.close();
    await closed;
    await guard.stop();
    audit.close();
    await archive?.close(deadlineMs);
    // What waits for its dedupe window or a retry is sent now, within a few seconds at most.
    await notifier.close(Math.min(5000, config.shutdownTimeoutMs));
    await stateStore.close();
  };
  return { server, store, logger, reload, shutdown };
}

export function addressPort(server: Server): number {
  const address = server.address();
  return typeof address === 'object' && address ? address.port : 0;
}

/**
 * The guard's facts: the same sources (assembleFactSources), asked the same way, as a preflight's
 * (app.ts), but its live signals read fresh at each tick (docs/guard.md, "How fast").
 */
function guardFacts(
  state: ReturnType<typeof guardrailState>,
  factSources: ServiceFactSources,
  logger: Logger,
): Pick<RunGuardDeps, 'gather' | 'nextTick'> {
  const sources = [...assembleFactSources({ state, logger }).guard, ...factSources.guard];
  return { gather: factGatherer(sources), nextTick: factSources.nextTick };
}
