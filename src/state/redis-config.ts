import { readFileSync } from 'node:fs';
import { ConfigError, envFlag, envInteger } from '../common/env-values';

export interface HostPort {
  host: string;
  port: number;
}

/** How the service reaches Redis: one server, a Sentinel-managed primary, or a Redis Cluster. */
export type RedisTopology =
  | { kind: 'standalone'; url: string }
  | { kind: 'sentinel'; sentinels: HostPort[]; name: string; sentinelUsername?: string; sentinelPassword?: string }
  | { kind: 'cluster'; nodes: HostPort[] };

/** Redis settings of docs/state.md (REDIS_*). */
export interface RedisConfig {
  topology: RedisTopology;
  username?: string;
  password?: string;
  /** TLS to every Redis node (and every sentinel); `ca` from REDIS_TLS_CA_FILE, else the system's CAs. */
  tls?: { ca?: string };
  /** REDIS_KEY_PREFIX: every key is `{<prefix>}<name>`, one hash slot (docs/decisions/0012-redis-hash-tag.md). */
  keyPrefix: string;
  /** REDIS_WAIT_REPLICAS: replicas that must hold an update before /events answers 2xx. */
  waitReplicas: number;
}

const TOPOLOGY_VARS = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'] as const;
const set = (env: NodeJS.ProcessEnv, name: string) => env[name] !== undefined && env[name] !== '';

/** `host:port,host:port` (IPv6 as `[::1]:6379`), each port 1..65535. */
export function parseHostPorts(name: string, raw: string): HostPort[] {
  return raw.split(',').map((entry) => {
    const m = /^(?:\[([^\]]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(entry.trim());
    const port = m ? Number(m[3]) : 0;
    if (!m || port < 1 || port > 65535)
      throw new ConfigError(
        `${name} must be host:port entries separated by commas (e.g. redis-0:26379,redis-1:26379), got "${entry.trim()}" in "${raw}"`,
      );
    return { host: m[1] ?? m[2], port };
  });
}

function topology(env: NodeJS.ProcessEnv): RedisTopology | undefined {
  const given = TOPOLOGY_VARS.filter((name) => set(env, name));
  if (given.length > 1)
    throw new ConfigError(
      `${given.join(' and ')} are set: set exactly one of ${TOPOLOGY_VARS.join(', ')} (or none for in-memory state)`,
    );
  if (set(env, 'REDIS_SENTINEL_NAME') && !set(env, 'REDIS_SENTINELS'))
    throw new ConfigError(
      'REDIS_SENTINEL_NAME is set without REDIS_SENTINELS: give the sentinels as host:port,host:port',
    );
  if (given.length === 0) return undefined;
  if (set(env, 'REDIS_URL')) {
    const url = env.REDIS_URL as string;
    if (!/^rediss?:\/\/[^\s]+$/.test(url))
      throw new ConfigError(
        'REDIS_URL must look like redis://host:6379/0 or rediss://host:6380 (or be unset for in-memory state)',
      );
    return { kind: 'standalone', url };
  }
  if (set(env, 'REDIS_CLUSTER_NODES'))
    return { kind: 'cluster', nodes: parseHostPorts('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES as string) };
  const sentinels = parseHostPorts('REDIS_SENTINELS', env.REDIS_SENTINELS as string);
  if (!set(env, 'REDIS_SENTINEL_NAME'))
    throw new ConfigError(
      'REDIS_SENTINELS needs REDIS_SENTINEL_NAME: the name the sentinels monitor the primary under (sentinel monitor <name> ...)',
    );
  return {
    kind: 'sentinel',
    sentinels,
    name: env.REDIS_SENTINEL_NAME as string,
    sentinelUsername: env.REDIS_SENTINEL_USERNAME || undefined,
    sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined,
  };
}

function tls(env: NodeJS.ProcessEnv, t: RedisTopology): RedisConfig['tls'] {
  const caFile = env.REDIS_TLS_CA_FILE || undefined;
  const wanted = envFlag(env, 'REDIS_TLS', false) || caFile !== undefined;
  if (t.kind === 'standalone') {
    const rediss = t.url.startsWith('rediss://');
    if (wanted && !rediss)
      throw new ConfigError('REDIS_TLS / REDIS_TLS_CA_FILE need a rediss:// REDIS_URL (redis:// is plain text)');
    if (!rediss) return undefined;
  } else if (!wanted) {
    return undefined;
  }
  if (caFile === undefined) return {};
  try {
    return { ca: readFileSync(caFile, 'utf8') };
  } catch (err) {
    throw new ConfigError(`REDIS_TLS_CA_FILE cannot be read: ${(err as NodeJS.ErrnoException).message}`);
  }
}

function credentials(env: NodeJS.ProcessEnv, t: RedisTopology): Pick<RedisConfig, 'username' | 'password'> {
  const username = env.REDIS_USERNAME || undefined;
  const password = env.REDIS_PASSWORD || undefined;
  if (t.kind === 'standalone' && (username || password) && /^rediss?:\/\/[^/@]*@/.test(t.url)) {
    throw new ConfigError('REDIS_URL carries credentials and REDIS_USERNAME/REDIS_PASSWORD are set: give them once');
  }
  if (username && !password)
    throw new ConfigError('REDIS_USERNAME is set without REDIS_PASSWORD: an ACL user needs its password');
  return { username, password };
}

function keyPrefix(env: NodeJS.ProcessEnv): string {
  const prefix = env.REDIS_KEY_PREFIX || 'preflight-gate:';
  if (/[{}\s]/.test(prefix))
    throw new ConfigError(
      `REDIS_KEY_PREFIX must not contain braces or spaces (the service wraps it in a hash tag itself), got "${prefix}"`,
    );
  return prefix;
}

/** The Redis settings, or undefined when no topology is set (in-memory state). A bad value is a ConfigError naming the variable. */
export function parseRedisConfig(env: NodeJS.ProcessEnv): RedisConfig | undefined {
  const t = topology(env);
  // These are checked even without Redis: a typo shows before Redis is turned on.
  const prefix = keyPrefix(env);
  const waitReplicas = (standalone: boolean) => envInteger(env, 'REDIS_WAIT_REPLICAS', standalone ? 0 : 1, 0, 16);
  waitReplicas(true);
  envFlag(env, 'REDIS_TLS', false);
  if (!t) return undefined;
  return {
    topology: t,
    ...credentials(env, t),
    tls: tls(env, t),
    keyPrefix: prefix,
    waitReplicas: waitReplicas(t.kind === 'standalone'),
  };
}
