"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startServer = startServer;
exports.addressPort = addressPort;
const node_crypto_1 = require("node:crypto");
const create_http_server_1 = require("../http/create-http-server");
const preflight_route_1 = require("../http/preflight-route");
const graceful_close_1 = require("../http/graceful-close");
const logger_1 = require("../common/logger");
const policy_watcher_1 = require("../policy/runtime/policy-watcher");
const build_service_1 = require("./build-service");
/** Builds the service (service/build-service.ts) and starts listening. Throws PolicyLoadError on an invalid set. */
async function startServer(config, logger = (0, logger_1.createLogger)(config.logLevel), hooks = {}) {
    let shuttingDown = false;
    const service = await (0, build_service_1.buildService)(config, logger, { hooks, isShuttingDown: () => shuttingDown });
    const { store, reload } = service;
    const server = await new Promise((resolve, reject) => {
        const s = (0, create_http_server_1.createHttpServer)(service.app, { headersFor: (0, preflight_route_1.preflightIdHeader)(node_crypto_1.randomUUID) }).listen(config.port, config.host, () => resolve(s));
        s.once('error', reject);
    });
    const closeGracefully = (0, graceful_close_1.gracefulCloser)(server);
    service.start();
    logger.info('listening', {
        host: config.host,
        port: addressPort(server),
        policyDir: config.policyDir,
        ...service.policies,
        signaturesEnforced: config.secrets.length > 0,
    });
    let watcher;
    if (config.policyWatch) {
        watcher = (0, policy_watcher_1.watchPolicyDir)(config.policyDir, () => reload('watch'), {
            debounceMs: config.policyReloadDebounceMs,
            onError: (err) => logger.error('policy directory watch failed; SIGHUP still reloads', { error: String(err) }),
            onRewatch: (why) => logger.warn(`policy directory ${why === 'back' ? 'is back' : 'was replaced'}: watching it anew and reloading`, {
                policyDir: config.policyDir,
            }),
        });
        // Not awaited: the caller installs its SIGTERM handling as soon as the server listens. A change
        // made between the first load and the watch starting is caught by one more look once it is
        // ready, part of the start-up (found unchanged, it leaves /readyz's lastLoad the start-up's).
        void watcher.ready.then(() => {
            if (!shuttingDown)
                reload('startup');
        });
    }
    const shutdown = async () => {
        shuttingDown = true;
        // Everything, the decision archive's last upload included, is done by this time.
        const deadlineMs = Date.now() + config.shutdownTimeoutMs;
        service.stopSyncing();
        // Stop accepting at once; requests in flight finish while the watcher closes.
        const closed = closeGracefully(config.shutdownTimeoutMs);
        await watcher?.close();
        await closed;
        await service.close(deadlineMs);
    };
    return { server, store, logger, reload, shutdown };
}
function addressPort(server) {
    const address = server.address();
    return typeof address === 'object' && address ? address.port : 0;
}
//# sourceMappingURL=start-server.js.map