"use strict";
var __createBinding = (this && this.__createBinding) || (Object.create ? (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    var desc = Object.getOwnPropertyDescriptor(m, k);
    if (!desc || ("get" in desc ? !m.__esModule : desc.writable || desc.configurable)) {
      desc = { enumerable: true, get: function() { return m[k]; } };
    }
    Object.defineProperty(o, k2, desc);
}) : (function(o, m, k, k2) {
    if (k2 === undefined) k2 = k;
    o[k2] = m[k];
}));
var __setModuleDefault = (this && this.__setModuleDefault) || (Object.create ? (function(o, v) {
    Object.defineProperty(o, "default", { enumerable: true, value: v });
}) : function(o, v) {
    o["default"] = v;
});
var __importStar = (this && this.__importStar) || (function () {
    var ownKeys = function(o) {
        ownKeys = Object.getOwnPropertyNames || function (o) {
            var ar = [];
            for (var k in o) if (Object.prototype.hasOwnProperty.call(o, k)) ar[ar.length] = k;
            return ar;
        };
        return ownKeys(o);
    };
    return function (mod) {
        if (mod && mod.__esModule) return mod;
        var result = {};
        if (mod != null) for (var k = ownKeys(mod), i = 0; i < k.length; i++) if (k[i] !== "default") __createBinding(result, mod, k[i]);
        __setModuleDefault(result, mod);
        return result;
    };
})();
Object.defineProperty(exports, "__esModule", { value: true });
exports.createRedisClient = createRedisClient;
exports.describeTopology = describeTopology;
const ioredis_1 = __importStar(require("ioredis"));
const listening_connector_1 = require("./listening-connector");
/** Reconnect quickly at first, then every second: the service recovers by itself when Redis returns. */
const reconnectDelay = (times) => Math.min(100 * times, 1000);
/**
 * The ioredis client for the configured topology. Commands never queue while Redis is away
 * (enableOfflineQueue false, no retries): they fail at once or after `timeoutMs`, so a preflight
 * answers well inside Steadybit's 55 s. A node that turned replica (a failover) answers READONLY:
 * reconnect, so the next command finds the new primary.
 */
function createRedisClient(config, timeoutMs) {
    const node = {
        enableOfflineQueue: false,
        maxRetriesPerRequest: 0,
        commandTimeout: timeoutMs,
        connectTimeout: timeoutMs,
        retryStrategy: reconnectDelay,
        reconnectOnError: (err) => err.message.startsWith('READONLY'),
        ...(config.username ? { username: config.username } : {}),
        ...(config.password ? { password: config.password } : {}),
        ...(config.tls ? { tls: config.tls } : {}),
        // A server's (or a cluster node's) socket: a second error on it must not end the process.
        Connector: listening_connector_1.ListeningConnector,
    };
    const t = config.topology;
    switch (t.kind) {
        case 'standalone':
            return new ioredis_1.default(t.url, node);
        case 'sentinel':
            // SentinelConnector instead (ioredis picks it for `sentinels` only without a Connector of ours).
            return new ioredis_1.default({
                ...withoutConnector(node),
                sentinels: t.sentinels,
                name: t.name,
                sentinelUsername: t.sentinelUsername,
                sentinelPassword: t.sentinelPassword,
                sentinelRetryStrategy: reconnectDelay,
                sentinelCommandTimeout: timeoutMs,
                // Subscribes to +switch-master on the sentinels: a failover is followed at once, not at the next error.
                failoverDetector: true,
                ...(config.tls ? { enableTLSForSentinelMode: true, sentinelTLS: config.tls } : {}),
            });
        case 'cluster':
            return new ioredis_1.Cluster(t.nodes, {
                redisOptions: node,
                enableOfflineQueue: false,
                clusterRetryStrategy: reconnectDelay,
                scaleReads: 'master',
                slotsRefreshTimeout: timeoutMs,
                retryDelayOnFailover: 100,
                retryDelayOnClusterDown: 100,
                retryDelayOnTryAgain: 100,
                ...(config.tls ? { dnsLookup: (address, callback) => callback(null, address) } : {}),
            });
    }
}
function withoutConnector(options) {
    const { Connector: _, ...rest } = options;
    return rest;
}
/** What the topology is, for messages and /readyz: `redis`, `sentinel mymaster`, `cluster`. */
function describeTopology(config) {
    const t = config.topology;
    return t.kind === 'sentinel' ? `sentinel ${t.name}` : t.kind === 'cluster' ? 'cluster' : 'standalone';
}
//# sourceMappingURL=redis-client.js.map