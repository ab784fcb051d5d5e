"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.connectPlatform = connectPlatform;
const memory_state_store_1 = require("../state/memory-state-store");
const environment_directory_1 = require("./environment-directory");
const team_directory_1 = require("./team-directory");
const platform_client_1 = require("./platform-client");
const platform_metrics_1 = require("./platform-metrics");
const platform_sync_1 = require("./platform-sync");
const cancel_execution_1 = require("./cancel-execution");
const UNCONFIRMED = 'the emergency stop cannot be checked: this replica keeps state in memory, restarted, and has not read the kill switch from the Steadybit Platform API yet';
function connectPlatform(config, deps) {
    const metrics = (0, platform_metrics_1.createPlatformMetrics)(deps.registry);
    const client = (0, platform_client_1.createPlatformClient)(config, { metrics });
    const directory = new environment_directory_1.EnvironmentDirectory(client, { maxAgeMs: config.nameMaxAgeMs, waitMs: config.preflightWaitMs, minGapMs: 10_000 }, metrics);
    const teams = new team_directory_1.TeamDirectory(client, {
        refreshMs: config.environmentsRefreshMs,
        maxAgeMs: config.nameMaxAgeMs,
        waitMs: config.preflightWaitMs,
        minGapMs: 10_000,
    });
    const sync = new platform_sync_1.PlatformSync({
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
            let timer;
            await Promise.race([
                sync.start(),
                new Promise((r) => {
                    timer = setTimeout(r, boundMs);
                }),
            ]);
            clearTimeout(timer);
        },
        health() {
            const s = sync.status();
            return {
                url: config.url,
                synced: s.killswitch.syncedAt !== undefined &&
                    s.executions.syncedAt !== undefined &&
                    s.environments.syncedAt !== undefined,
                environments: { ...s.environments, count: directory.status().environments },
                killswitch: s.killswitch,
                executions: s.executions,
            };
        },
        confirmingStore(store) {
            if (store.kind !== 'memory')
                return store;
            const read = async (...args) => {
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
                health: () => ({ ...store.health(), restart: memory_state_store_1.MEMORY_RESTART_REBUILT }),
                close: () => store.close(),
            };
        },
        cancel: (executionId, withinMs) => (0, cancel_execution_1.cancelExecution)(client, executionId, Date.now() + withinMs),
        close: () => sync.stop(),
    };
}
//# sourceMappingURL=platform-connection.js.map