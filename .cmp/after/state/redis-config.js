"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseHostPorts = parseHostPorts;
exports.parseRedisConfig = parseRedisConfig;
const node_fs_1 = require("node:fs");
const env_values_1 = require("../common/env-values");
const TOPOLOGY_VARS = ['REDIS_URL', 'REDIS_SENTINELS', 'REDIS_CLUSTER_NODES'];
const set = (env, name) => env[name] !== undefined && env[name] !== '';
/** `host:port,host:port` (IPv6 as `[::1]:6379`), each port 1..65535. */
function parseHostPorts(name, raw) {
    return raw.split(',').map((entry) => {
        const m = /^(?:\[([^\]]+)\]|([^:\s[\]]+)):(\d{1,5})$/.exec(entry.trim());
        const port = m ? Number(m[3]) : 0;
        if (!m || port < 1 || port > 65535)
            throw new env_values_1.ConfigError(`${name} must be host:port entries separated by commas (e.g. redis-0:26379,redis-1:26379), got "${entry.trim()}" in "${raw}"`);
        return { host: m[1] ?? m[2], port };
    });
}
function topology(env) {
    const given = TOPOLOGY_VARS.filter((name) => set(env, name));
    if (given.length > 1)
        throw new env_values_1.ConfigError(`${given.join(' and ')} are set: set exactly one of ${TOPOLOGY_VARS.join(', ')} (or none for in-memory state)`);
    if (set(env, 'REDIS_SENTINEL_NAME') && !set(env, 'REDIS_SENTINELS'))
        throw new env_values_1.ConfigError('REDIS_SENTINEL_NAME is set without REDIS_SENTINELS: give the sentinels as host:port,host:port');
    if (given.length === 0)
        return undefined;
    if (set(env, 'REDIS_URL')) {
        const url = env.REDIS_URL;
        if (!/^rediss?:\/\/[^\s]+$/.test(url))
            throw new env_values_1.ConfigError('REDIS_URL must look like redis://host:6379/0 or rediss://host:6380 (or be unset for in-memory state)');
        return { kind: 'standalone', url };
    }
    if (set(env, 'REDIS_CLUSTER_NODES'))
        return { kind: 'cluster', nodes: parseHostPorts('REDIS_CLUSTER_NODES', env.REDIS_CLUSTER_NODES) };
    const sentinels = parseHostPorts('REDIS_SENTINELS', env.REDIS_SENTINELS);
    if (!set(env, 'REDIS_SENTINEL_NAME'))
        throw new env_values_1.ConfigError('REDIS_SENTINELS needs REDIS_SENTINEL_NAME: the name the sentinels monitor the primary under (sentinel monitor <name> ...)');
    return {
        kind: 'sentinel',
        sentinels,
        name: env.REDIS_SENTINEL_NAME,
        sentinelUsername: env.REDIS_SENTINEL_USERNAME || undefined,
        sentinelPassword: env.REDIS_SENTINEL_PASSWORD || undefined,
    };
}
function tls(env, t) {
    const caFile = env.REDIS_TLS_CA_FILE || undefined;
    const wanted = (0, env_values_1.envFlag)(env, 'REDIS_TLS', false) || caFile !== undefined;
    if (t.kind === 'standalone') {
        const rediss = t.url.startsWith('rediss://');
        if (wanted && !rediss)
            throw new env_values_1.ConfigError('REDIS_TLS / REDIS_TLS_CA_FILE need a rediss:// REDIS_URL (redis:// is plain text)');
        if (!rediss)
            return undefined;
    }
    else if (!wanted) {
        return undefined;
    }
    if (caFile === undefined)
        return {};
    try {
        return { ca: (0, node_fs_1.readFileSync)(caFile, 'utf8') };
    }
    catch (err) {
        throw new env_values_1.ConfigError(`REDIS_TLS_CA_FILE cannot be read: ${err.message}`);
    }
}
function credentials(env, t) {
    const username = env.REDIS_USERNAME || undefined;
    const password = env.REDIS_PASSWORD || undefined;
    if (t.kind === 'standalone' && (username || password) && /^rediss?:\/\/[^/@]*@/.test(t.url)) {
        throw new env_values_1.ConfigError('REDIS_URL carries credentials and REDIS_USERNAME/REDIS_PASSWORD are set: give them once');
    }
    if (username && !password)
        throw new env_values_1.ConfigError('REDIS_USERNAME is set without REDIS_PASSWORD: an ACL user needs its password');
    return { username, password };
}
function keyPrefix(env) {
    const prefix = env.REDIS_KEY_PREFIX || 'preflight-gate:';
    if (/[{}\s]/.test(prefix))
        throw new env_values_1.ConfigError(`REDIS_KEY_PREFIX must not contain braces or spaces (the service wraps it in a hash tag itself), got "${prefix}"`);
    return prefix;
}
/** The Redis settings, or undefined when no topology is set (in-memory state). A bad value is a ConfigError naming the variable. */
function parseRedisConfig(env) {
    const t = topology(env);
    // These are checked even without Redis: a typo shows before Redis is turned on.
    const prefix = keyPrefix(env);
    const waitReplicas = (standalone) => (0, env_values_1.envInteger)(env, 'REDIS_WAIT_REPLICAS', standalone ? 0 : 1, 0, 16);
    waitReplicas(true);
    (0, env_values_1.envFlag)(env, 'REDIS_TLS', false);
    if (!t)
        return undefined;
    return {
        topology: t,
        ...credentials(env, t),
        tls: tls(env, t),
        keyPrefix: prefix,
        waitReplicas: waitReplicas(t.kind === 'standalone'),
    };
}
//# sourceMappingURL=redis-config.js.map