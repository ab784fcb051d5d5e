"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.envSize = envSize;
exports.parseArchiveConfig = parseArchiveConfig;
exports.s3Settings = s3Settings;
const node_os_1 = require("node:os");
const node_path_1 = require("node:path");
const node_fs_1 = require("node:fs");
const env_values_1 = require("../common/env-values");
const duration_1 = require("../syntax/duration");
const s3_location_1 = require("./s3-location");
const SIZE = /^(\d+)(b|kb|mb|gb)?$/i;
const FACTORS = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };
/** `64mb` -> bytes; unset takes the default. */
function envSize(env, name, fallback, min) {
    const raw = (env[name] ?? '').trim();
    if (raw === '')
        return fallback;
    const m = SIZE.exec(raw);
    const bytes = m ? Number(m[1]) * FACTORS[(m[2] ?? 'b').toLowerCase()] : NaN;
    if (!Number.isSafeInteger(bytes) || bytes < min)
        throw new env_values_1.ConfigError(`${name} must be a size of at least ${min} bytes, such as 64mb or 512kb, got "${raw}"`);
    return bytes;
}
function envDuration(env, name, fallback, min) {
    const raw = (env[name] ?? '').trim();
    if (raw === '')
        return fallback;
    const ms = (0, duration_1.parseDuration)(raw);
    if (ms === undefined || ms < min)
        throw new env_values_1.ConfigError(`${name} must be a duration of at least ${min / 1000}s, such as 1h or 30m, got "${raw}"`);
    return ms;
}
function maskKeys(env) {
    const raw = (env.DECISION_ARCHIVE_MASK_ATTRIBUTES ?? '').trim();
    if (raw === '')
        return [];
    const keys = raw.split(',').map((k) => k.trim());
    if (keys.some((k) => k === ''))
        throw new env_values_1.ConfigError(`DECISION_ARCHIVE_MASK_ATTRIBUTES must be a comma-separated list of attribute keys (no empty entries), got "${raw}"`);
    return [...new Set(keys)];
}
const isDirectory = (path) => {
    try {
        return (0, node_fs_1.statSync)(path).isDirectory();
    }
    catch {
        return false; // Not there yet: a file path (its directory must exist when the first decision is written).
    }
};
/**
 * DECISION_ARCHIVE and its settings -> ArchiveConfig. A directory (existing, or written with a
 * trailing `/`) holds one file per writer, named after the host, so replicas sharing a volume never
 * write the same file.
 */
function parseArchiveConfig(env, host = (0, node_os_1.hostname)()) {
    const raw = (env.DECISION_ARCHIVE ?? '').trim();
    // Every setting is checked even while the archive is off: a typo shows before it is turned on.
    const settings = archiveSettings(env);
    const s3 = s3Settings(env);
    if (raw === '' || raw === 'off')
        return { kind: 'off' };
    if ((0, s3_location_1.isS3Url)(raw)) {
        const spool = (env.DECISION_ARCHIVE_SPOOL_DIR ?? '').trim() || (0, node_path_1.join)((0, node_os_1.tmpdir)(), 'preflight-gate-archive');
        if (s3.spoolMaxBytes < settings.maxBytes) {
            throw new env_values_1.ConfigError(`DECISION_ARCHIVE_SPOOL_MAX_BYTES (${s3.spoolMaxBytes} bytes) must be at least DECISION_ARCHIVE_MAX_BYTES (${settings.maxBytes}): the open file alone may grow that large`);
        }
        return {
            kind: 's3',
            path: (0, node_path_1.join)(spool, `decisions-${host.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`),
            location: (0, s3_location_1.parseS3Url)(raw, 'DECISION_ARCHIVE'),
            ...settings,
            ...s3,
        };
    }
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
        throw new env_values_1.ConfigError(`DECISION_ARCHIVE must be a file, a directory or s3://bucket/prefix, got "${raw}"`);
    const path = raw.endsWith('/') || isDirectory(raw) ? (0, node_path_1.join)(raw, `decisions-${host.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`) : raw;
    return { kind: 'file', path, ...settings };
}
/** The DECISION_ARCHIVE_S3_* settings (also what `replay --archive s3://...` reads the store with). */
function s3Settings(env) {
    const endpoint = (env.DECISION_ARCHIVE_S3_ENDPOINT ?? '').trim() || undefined;
    if (endpoint !== undefined && !/^https?:\/\/[^/?#@\s]+\/?$/.test(endpoint)) {
        throw new env_values_1.ConfigError(`DECISION_ARCHIVE_S3_ENDPOINT must be the store's address, such as https://minio.example.com:9000 (no path, no credentials), got "${endpoint}"`);
    }
    const region = (env.DECISION_ARCHIVE_S3_REGION ?? '').trim() || undefined;
    return {
        s3: { endpoint, region, forcePathStyle: (0, env_values_1.envFlag)(env, 'DECISION_ARCHIVE_S3_PATH_STYLE', endpoint !== undefined) },
        spoolMaxBytes: envSize(env, 'DECISION_ARCHIVE_SPOOL_MAX_BYTES', 256 * 1024 ** 2, 64 * 1024),
    };
}
function archiveSettings(env) {
    return {
        maxBytes: envSize(env, 'DECISION_ARCHIVE_MAX_BYTES', 64 * 1024 ** 2, 1024),
        maxAgeMs: envDuration(env, 'DECISION_ARCHIVE_MAX_AGE', 3_600_000, 1000),
        maxFiles: (0, env_values_1.envInteger)(env, 'DECISION_ARCHIVE_MAX_FILES', 168, 0, 1_000_000),
        queueBytes: envSize(env, 'DECISION_ARCHIVE_QUEUE_BYTES', 32 * 1024 ** 2, 1024),
        maskAttributes: maskKeys(env),
    };
}
//# sourceMappingURL=archive-config.js.map