import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { statSync } from 'node:fs';
import { ConfigError, envFlag, envInteger } from '../common/env-values';
import { parseDuration } from '../syntax/duration';
import type { S3Settings } from './s3-client';
import { isS3Url, parseS3Url, type S3Location } from './s3-location';

/** Where and how the decision archive is written (docs/replay.md, "Recording decisions"). */
export type ArchiveConfig =
  | { kind: 'off' }
  | ({ kind: 'file' } & ArchiveSettings)
  | ({ kind: 's3' } & ArchiveSettings & S3Archive);

/** DECISION_ARCHIVE=s3://bucket/prefix: files are written to a local spool, and uploaded once closed. */
export interface S3Archive {
  location: S3Location;
  s3: S3Settings;
  /** DECISION_ARCHIVE_SPOOL_MAX_BYTES (default 256mb): closed files waiting for upload plus the open one; beyond it decisions are not archived (counted as failed). */
  spoolMaxBytes: number;
}

export interface ArchiveSettings {
  /** The file decisions are appended to; closed files sit next to it (archive-files.ts). */
  path: string;
  /** DECISION_ARCHIVE_MAX_BYTES (default 64mb): a file this large is closed and gzipped. */
  maxBytes: number;
  /** DECISION_ARCHIVE_MAX_AGE (default 1h): a file open this long is closed and gzipped. */
  maxAgeMs: number;
  /** DECISION_ARCHIVE_MAX_FILES (default 168): closed files kept per writer, oldest removed first; 0 keeps all. */
  maxFiles: number;
  /** DECISION_ARCHIVE_QUEUE_BYTES (default 32mb): records waiting to be written; beyond it they are dropped and counted. */
  queueBytes: number;
  /** DECISION_ARCHIVE_MASK_ATTRIBUTES: target attribute keys whose values are not written. */
  maskAttributes: readonly string[];
}

const SIZE = /^(\d+)(b|kb|mb|gb)?$/i;
const FACTORS: Record<string, number> = { b: 1, kb: 1024, mb: 1024 ** 2, gb: 1024 ** 3 };

/** `64mb` -> bytes; unset takes the default. */
export function envSize(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const m = SIZE.exec(raw);
  const bytes = m ? Number(m[1]) * FACTORS[(m[2] ?? 'b').toLowerCase()] : NaN;
  if (!Number.isSafeInteger(bytes) || bytes < min)
    throw new ConfigError(`${name} must be a size of at least ${min} bytes, such as 64mb or 512kb, got "${raw}"`);
  return bytes;
}

function envDuration(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < min)
    throw new ConfigError(`${name} must be a duration of at least ${min / 1000}s, such as 1h or 30m, got "${raw}"`);
  return ms;
}

function maskKeys(env: NodeJS.ProcessEnv): string[] {
  const raw = (env.DECISION_ARCHIVE_MASK_ATTRIBUTES ?? '').trim();
  if (raw === '') return [];
  const keys = raw.split(',').map((k) => k.trim());
  if (keys.some((k) => k === ''))
    throw new ConfigError(
      `DECISION_ARCHIVE_MASK_ATTRIBUTES must be a comma-separated list of attribute keys (no empty entries), got "${raw}"`,
    );
  return [...new Set(keys)];
}

const isDirectory = (path: string) => {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false; // Not there yet: a file path (its directory must exist when the first decision is written).
  }
};

/**
 * DECISION_ARCHIVE and its settings -> ArchiveConfig. A directory (existing, or written with a
 * trailing `/`) holds one file per writer, named after the host, so replicas sharing a volume never
 * write the same file.
 */
export function parseArchiveConfig(env: NodeJS.ProcessEnv, host: string = hostname()): ArchiveConfig {
  const raw = (env.DECISION_ARCHIVE ?? '').trim();
  // Every setting is checked even while the archive is off: a typo shows before it is turned on.
  const settings = archiveSettings(env);
  const s3 = s3Settings(env);
  if (raw === '' || raw === 'off') return { kind: 'off' };
  if (isS3Url(raw)) {
    const spool = (env.DECISION_ARCHIVE_SPOOL_DIR ?? '').trim() || join(tmpdir(), 'preflight-gate-archive');
    if (s3.spoolMaxBytes < settings.maxBytes) {
      throw new ConfigError(
        `DECISION_ARCHIVE_SPOOL_MAX_BYTES (${s3.spoolMaxBytes} bytes) must be at least DECISION_ARCHIVE_MAX_BYTES (${settings.maxBytes}): the open file alone may grow that large`,
      );
    }
    return {
      kind: 's3',
      path: join(spool, `decisions-${host.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`),
      location: parseS3Url(raw, 'DECISION_ARCHIVE'),
      ...settings,
      ...s3,
    };
  }
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(raw))
    throw new ConfigError(`DECISION_ARCHIVE must be a file, a directory or s3://bucket/prefix, got "${raw}"`);
  const path =
    raw.endsWith('/') || isDirectory(raw) ? join(raw, `decisions-${host.replace(/[^A-Za-z0-9_.-]/g, '_')}.jsonl`) : raw;
  return { kind: 'file', path, ...settings };
}

/** The DECISION_ARCHIVE_S3_* settings (also what `replay --archive s3://...` reads the store with). */
export function s3Settings(env: NodeJS.ProcessEnv): Omit<S3Archive, 'location'> {
  const endpoint = (env.DECISION_ARCHIVE_S3_ENDPOINT ?? '').trim() || undefined;
  if (endpoint !== undefined && !/^https?:\/\/[^/?#@\s]+\/?$/.test(endpoint)) {
    throw new ConfigError(
      `DECISION_ARCHIVE_S3_ENDPOINT must be the store's address, such as https://minio.example.com:9000 (no path, no credentials), got "${endpoint}"`,
    );
  }
  const region = (env.DECISION_ARCHIVE_S3_REGION ?? '').trim() || undefined;
  return {
    s3: { endpoint, region, forcePathStyle: envFlag(env, 'DECISION_ARCHIVE_S3_PATH_STYLE', endpoint !== undefined) },
    spoolMaxBytes: envSize(env, 'DECISION_ARCHIVE_SPOOL_MAX_BYTES', 256 * 1024 ** 2, 64 * 1024),
  };
}

function archiveSettings(env: NodeJS.ProcessEnv): Omit<ArchiveSettings, 'path'> {
  return {
    maxBytes: envSize(env, 'DECISION_ARCHIVE_MAX_BYTES', 64 * 1024 ** 2, 1024),
    maxAgeMs: envDuration(env, 'DECISION_ARCHIVE_MAX_AGE', 3_600_000, 1000),
    maxFiles: envInteger(env, 'DECISION_ARCHIVE_MAX_FILES', 168, 0, 1_000_000),
    queueBytes: envSize(env, 'DECISION_ARCHIVE_QUEUE_BYTES', 32 * 1024 ** 2, 1024),
    maskAttributes: maskKeys(env),
  };
}
