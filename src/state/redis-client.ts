import Redis, { Cluster, type RedisOptions } from 'ioredis';
import { ListeningConnector } from './listening-connector';
import type { RedisConfig } from './redis-config';

/** A connection to one of the topologies: the same commands, the same failure modes. */
export type RedisClient = Redis | Cluster;

/** Reconnect quickly at first, then every second: the service recovers by itself when Redis returns. */
const reconnectDelay = (times: number) => Math.min(100 * times, 1000);

/**
 * The ioredis client for the configured topology. Commands never queue while Redis is away
 * (enableOfflineQueue false, no retries): they fail at once or after `timeoutMs`, so a preflight
 * answers well inside Steadybit's 55 s. A node that turned replica (a failover) answers READONLY:
 * reconnect, so the next command finds the new primary.
 */
export function createRedisClient(config: RedisConfig, timeoutMs: number): RedisClient {
  const node: RedisOptions = {
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
    Connector: ListeningConnector,
  };
  const t = config.topology;
  switch (t.kind) {
    case 'standalone':
      return new Redis(t.url, node);
    case 'sentinel':
      // SentinelConnector instead (ioredis picks it for `sentinels` only without a Connector of ours).
      return new Redis({
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
      return new Cluster(t.nodes, {
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

function withoutConnector(options: RedisOptions): RedisOptions {
  const { Connector: _, ...rest } = options;
  return rest;
}

/** What the topology is, for messages and /readyz: `redis`, `sentinel mymaster`, `cluster`. */
export function describeTopology(config: RedisConfig): string {
  const t = config.topology;
  return t.kind === 'sentinel' ? `sentinel ${t.name}` : t.kind === 'cluster' ? 'cluster' : 'standalone';
}
