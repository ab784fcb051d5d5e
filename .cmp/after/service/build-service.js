"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.buildService = buildService;
const node_crypto_1 = require("node:crypto");
const node_os_1 = require("node:os");
const create_app_1 = require("./create-app");
const create_decision_archive_1 = require("../archive/create-decision-archive");
const create_guard_store_1 = require("../guard/create-guard-store");
const runs_in_progress_1 = require("../guard/runs-in-progress");
const settle_overlap_1 = require("../guard/settle-overlap");
const forget_ended_runs_1 = require("../guard/forget-ended-runs");
const guard_metrics_1 = require("../guard/guard-metrics");
const guard_view_1 = require("../guard/guard-view");
const known_runs_1 = require("../guard/known-runs");
const run_guard_1 = require("../guard/run-guard");
const health_routes_1 = require("./health-routes");
const event_notifications_1 = require("../notify/event-notifications");
const notifier_1 = require("../notify/notifier");
const notifying_state_store_1 = require("../notify/notifying-state-store");
const audit_log_1 = require("../observability/audit-log");
const build_info_1 = require("../observability/build-info");
const ignored_files_report_1 = require("../observability/ignored-files-report");
const metrics_1 = require("../observability/metrics");
const reload_report_1 = require("../observability/reload-report");
const history_window_1 = require("../platform/history-window");
const platform_connection_1 = require("../platform/platform-connection");
const playground_page_1 = require("../playground/playground-page");
const fact_gatherer_1 = require("../policy/engine/fact-gatherer");
const built_in_policies_1 = require("../policy/compile/built-in-policies");
const load_error_1 = require("../policy/compile/load-error");
const starter_policies_1 = require("../policy/loading/starter-policies");
const policy_reloader_1 = require("../policy/runtime/policy-reloader");
const policy_store_1 = require("../policy/runtime/policy-store");
const service_signal_source_1 = require("../signals/service-signal-source");
const webhook_secrets_1 = require("../signature/webhook-secrets");
const create_state_store_1 = require("../state/create-state-store");
const guardrail_state_1 = require("../state/guardrail-state");
const check_needs_1 = require("./check-needs");
const service_capabilities_1 = require("./service-capabilities");
const service_fact_sources_1 = require("./service-fact-sources");
/** The longest start-up waits for the first sync with the Platform API before listening. */
const PLATFORM_STARTUP_MS = 10_000;
/**
 * The composition root (docs/decisions/0019-composition-root.md): builds every part of the service
 * from its config, declares the capabilities they make (service-capabilities.ts), checks what the
 * policy set needs of them (a `warning` logged, an `error` refuses to start), and builds the app
 * from the declarations. Throws PolicyLoadError on an invalid set.
 */
async function buildService(config, logger, deps) {
    const metrics = (0, metrics_1.createMetrics)();
    (0, build_info_1.registerBuildInfo)(metrics.registry, (0, build_info_1.buildInfo)(config.revision));
    const store = new policy_store_1.PolicyStore();
    const builtIns = (0, built_in_policies_1.builtInPolicies)(config.state.emergencyStop);
    const events = (0, reload_report_1.reloadReport)({ metrics, logger, builtIns: builtIns.map((p) => p.name) });
    // The store holds the set served: each load is assembled once, with the built-in policies, for the
    // guard and every route (docs/decisions/0032).
    const reloader = (0, policy_reloader_1.createPolicyReloader)({ dir: config.policyDir, store, events, builtIns });
    const first = reloader.reload('startup');
    if (first.result === 'failure')
        throw new load_error_1.PolicyLoadError(first.problems);
    const bundle = store.current();
    const warnIgnoredFiles = (0, ignored_files_report_1.ignoredFilesReporter)(config.policyDir, logger);
    warnIgnoredFiles(reloader.filesNotLoaded());
    if (config.secrets.length === 0)
        logger.warn(health_routes_1.UNSIGNED_WARNING);
    const starterPolicies = (0, starter_policies_1.isStarterPolicyDir)(config.policyDir);
    if (starterPolicies)
        logger.warn(starter_policies_1.STARTER_POLICIES_NOTICE, { policyDir: config.policyDir });
    const audit = (0, audit_log_1.createAuditLog)(config.audit);
    const notifier = (0, notifier_1.createNotifier)(config.notify, {
        registry: metrics.registry,
        logger,
        redaction: config.audit.redact,
    });
    if (config.notify.targets.length > 0)
        logger.info('notifications', {
            targets: config.notify.targets.map((t) => ({ name: t.name, type: t.type, events: t.filter.events })),
        });
    const stateStore = await (0, create_state_store_1.createStateStore)(config.state, new Date(), logger);
    const guardRuns = (0, create_guard_store_1.createGuardStore)(stateStore);
    const knownRuns = new known_runs_1.KnownRuns();
    // Every event reaches the state through this: a run that ends is forgotten by the guard, and an
    // emergency stop change is told as the store applies it (POST /events and the Platform API sync).
    const eventStore = (0, notifying_state_store_1.notifyingStateStore)((0, forget_ended_runs_1.forgetEndedRuns)(stateStore, guardRuns, logger, knownRuns), notifier);
    const platform = config.platform &&
        (0, platform_connection_1.connectPlatform)(config.platform, {
            store: eventStore,
            logger,
            registry: metrics.registry,
            historyMs: () => (0, history_window_1.historyWindowMs)(store.current()),
        });
    // noOverlap rules read the runs the guard keeps (every replica's, with Redis), and are decided one at a time.
    const inProgress = new runs_in_progress_1.RunsInProgress(guardRuns);
    const state = {
        ...(0, guardrail_state_1.guardrailState)(config.state, platform ? platform.confirmingStore(eventStore) : eventStore),
        inProgress,
    };
    const settleOverlap = (0, settle_overlap_1.overlapSettler)({ store: guardRuns, inProgress, executionTtlMs: config.state.executionTtlMs });
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
    const archive = config.archive.kind === 'off' ? undefined : (0, create_decision_archive_1.createDecisionArchive)(config.archive, { logger, metrics });
    if (config.archive.kind !== 'off')
        logger.info('decision archive', {
            path: config.archive.path,
            ...(config.archive.kind === 's3'
                ? { uploadTo: `s3://${config.archive.location.bucket}/${config.archive.location.prefix}` }
                : {}),
            maskAttributes: config.archive.maskAttributes,
        });
    const facts = {
        state,
        signals: (0, service_signal_source_1.serviceSignalSource)(config.signals, { registry: metrics.registry, logger, needs: bundle?.needs }),
        platform: platform && {
            directory: platform.directory,
            teams: platform.teams,
            health: () => platform.health(),
            cancels: true,
        },
    };
    // The guard asks the same sources, in the same order, as a preflight, its live signals read fresh at each tick.
    const sources = (0, service_fact_sources_1.serviceFactSources)((0, service_capabilities_1.serviceCapabilities)(facts, logger));
    // One served set for the guard and every route: the store's, assembled with the built-in policies.
    const served = store;
    const guard = new run_guard_1.RunGuard({
        policies: served,
        runs: guardRuns,
        known: knownRuns,
        gather: (0, fact_gatherer_1.factGatherer)(sources.guard),
        nextTick: sources.nextTick,
        cancel: platform ? (id, withinMs) => platform.cancel(id, withinMs) : undefined,
        environments: platform ? platform.directory : undefined,
        logger,
        metrics: (0, guard_metrics_1.createGuardMetrics)(metrics.registry),
        audit,
        archive,
        clock: () => new Date(),
        newId: node_crypto_1.randomUUID,
        replica: `${(0, node_os_1.hostname)()}:${process.pid}`,
        intervalMs: config.guard.intervalMs,
        leaseMs: config.guard.leaseMs,
        executionTtlMs: config.state.executionTtlMs,
        // Every stop is told (docs/notifications.md), then handed to whoever else subscribed.
        onStop: (stop) => {
            notifier.notify((0, event_notifications_1.runStoppedNotification)(stop, config.notify.runUrl));
            deps.hooks?.onStop?.(stop);
        },
        onReport: (report) => notifier.notify((0, event_notifications_1.signalSilentNotification)(report, config.notify.runUrl)),
    });
    const capabilities = (0, service_capabilities_1.serviceCapabilities)({
        ...facts,
        settleOverlap,
        archive,
        // Without targets the notifier tells no one: not a capability of this service.
        notifier: config.notify.targets.length > 0 ? notifier : undefined,
        guard,
        // Read once at start: a PLAYGROUND=on image without the built page fails here, naming the fix.
        playground: config.playground ? (0, playground_page_1.readPlaygroundPage)() : undefined,
    }, logger);
    // What the policy set asks that this service lacks: decided here, for every capability alike.
    (0, check_needs_1.checkNeedsAtStart)(capabilities, bundle, logger);
    if (bundle && (0, guard_view_1.guardsRuns)(bundle) && platform) {
        // The Platform API cannot tell a token's permissions without side effects: the first cancel tells (cancel-permission.ts).
        const { message, ...health } = guard.health();
        logger.info(`guard: runs in progress are judged again; whether the token may cancel them is ${message}`, {
            ...health,
        });
    }
    const app = (0, create_app_1.createApp)({
        store,
        served,
        secrets: config.secretFile ? (0, webhook_secrets_1.secretFile)(config.secretFile, config.secrets, { logger }) : config.secrets,
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
            policiesFromFiles: bundle && (0, built_in_policies_1.policiesFromFiles)(bundle),
            builtInPolicies: builtIns.map((p) => p.name),
        },
        // A rejected reload (watcher or SIGHUP) is told; the first load's failure stops the start instead.
        reload(trigger) {
            const outcome = reloader.reload(trigger);
            warnIgnoredFiles(reloader.filesNotLoaded());
            if (outcome.result === 'failure') {
                const problems = outcome.problems.filter((p) => p.severity === 'error').map(load_error_1.formatProblem);
                notifier.notify((0, event_notifications_1.policyRejectedNotification)(trigger, problems, outcome.revisionInUse, new Date()));
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
//# sourceMappingURL=build-service.js.map