import { readFileSync } from 'node:fs';
import { yamlLibrary } from '../common/yaml-library';
import { ConfigError, envInteger } from '../common/env-values';
import { parseDuration } from '../syntax/duration';
import { toFieldErrors, validated } from '../validation/field-errors';
import { validateNotifyTargetsFile } from './generated/notify-targets-file-schema';
import type { TargetEntry } from './notify-targets-file-schema';
import { defaultRunUrl, RUN_LINK_PLACEHOLDERS } from './run-link';
import { parseWebhookSecret } from './standard-webhook-signature';
import type { NotifyConfig, TargetConfig } from './target-config';

/** The default rate limit of a target: Slack allows about one message a second per incoming webhook. */
export const DEFAULT_RATE = { perMinute: 30, burst: 10 };
/** How long an Alertmanager alert about one run stays firing unless the target says otherwise. */
const DEFAULT_RESOLVE_AFTER_MS = 3_600_000;

const readText = (file: string, where: string) => {
  try {
    return readFileSync(file, 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    throw new ConfigError(`${where}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
  }
};

/** An http(s) URL, checked now so a typo shows at start-up; the message never repeats it (it may hold a token). */
function targetUrl(raw: string, where: string): string {
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    throw new ConfigError(`${where} is not a URL: give the full https:// address the receiver gave you`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:')
    throw new ConfigError(`${where} must start with https:// (or http://), got ${url.protocol}`);
  return url.href;
}

/** A value given inline, from a named environment variable, or from a file (a mounted Secret): exactly one. */
function oneOf(
  env: NodeJS.ProcessEnv,
  where: string,
  field: string,
  inline?: string,
  fromEnv?: string,
  fromFile?: string,
): string | undefined {
  const given = [inline, fromEnv, fromFile].filter((v) => v !== undefined).length;
  if (given > 1) throw new ConfigError(`${where}: give one of ${field}, ${field}Env and ${field}File`);
  if (inline !== undefined) return inline;
  if (fromEnv !== undefined) {
    const value = env[fromEnv];
    if (value === undefined || value === '')
      throw new ConfigError(`${where}.${field}Env: the environment variable ${fromEnv} is not set`);
    return value;
  }
  return fromFile === undefined ? undefined : readText(fromFile, `${where}.${field}File`);
}

function fromEntry(env: NodeJS.ProcessEnv, e: TargetEntry, where: string): TargetConfig {
  const url = oneOf(env, where, 'url', e.url, e.urlEnv, e.urlFile);
  if (url === undefined)
    throw new ConfigError(
      `${where}: give url, urlEnv or urlFile (a Slack or Teams URL is a secret: prefer urlEnv or urlFile)`,
    );
  const secret = oneOf(env, where, 'secret', e.secret, e.secretEnv, e.secretFile);
  if (e.type === 'webhook' && secret === undefined)
    throw new ConfigError(
      `${where}: a webhook target is signed: give secret, secretEnv or secretFile (whsec_ and base64, docs/notifications.md)`,
    );
  if (e.type !== 'webhook' && secret !== undefined)
    throw new ConfigError(`${where}: only webhook targets are signed; ${e.type} takes no secret`);
  if (e.type !== 'alertmanager' && e.resolveAfter !== undefined)
    throw new ConfigError(`${where}.resolveAfter: only alertmanager targets resolve their alerts`);
  const resolveAfterMs = e.resolveAfter === undefined ? DEFAULT_RESOLVE_AFTER_MS : parseDuration(e.resolveAfter);
  if (resolveAfterMs === undefined || resolveAfterMs < 60_000)
    throw new ConfigError(
      `${where}.resolveAfter must be a duration of at least 1m, such as 1h, got "${e.resolveAfter}"`,
    );
  return {
    name: e.name,
    type: e.type,
    url: targetUrl(url, `${where}.url`),
    ...(secret !== undefined ? { secret: parseWebhookSecret(secret, `${where}.secret`) } : {}),
    filter: { events: e.events, teams: e.teams, environments: e.environments, policies: e.policies, modes: e.modes },
    rate: { ...DEFAULT_RATE, ...e.rateLimit },
    resolveAfterMs,
  };
}

function fromFile(env: NodeJS.ProcessEnv, file: string): TargetConfig[] {
  let doc: unknown;
  try {
    doc = yamlLibrary().parse(readText(file, 'NOTIFY_TARGETS_FILE'));
  } catch (err) {
    if (err instanceof ConfigError) throw err;
    throw new ConfigError(
      `NOTIFY_TARGETS_FILE ${file} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`,
    );
  }
  if (!validateNotifyTargetsFile(doc)) {
    throw new ConfigError(
      `NOTIFY_TARGETS_FILE ${file} is invalid: ${toFieldErrors(
        validateNotifyTargetsFile.errors,
        validated(validateNotifyTargetsFile, doc),
      )
        .map((e) => `${e.path}: ${e.message}`)
        .join('; ')}`,
    );
  }
  return doc.targets.map((e, i) => fromEntry(env, e, `NOTIFY_TARGETS_FILE ${file}: targets[${i}] (${e.name})`));
}

/** NOTIFY_WEBHOOK_URL + NOTIFY_WEBHOOK_SECRET(_FILE): the simplest setup, a generic webhook told of denials. */
function fromEnv(env: NodeJS.ProcessEnv): TargetConfig | undefined {
  const url = env.NOTIFY_WEBHOOK_URL || undefined;
  const secret = oneOf(
    env,
    'NOTIFY_WEBHOOK_SECRET',
    'secret',
    env.NOTIFY_WEBHOOK_SECRET || undefined,
    undefined,
    env.NOTIFY_WEBHOOK_SECRET_FILE || undefined,
  );
  if (url === undefined) {
    if (secret !== undefined)
      throw new ConfigError(
        "NOTIFY_WEBHOOK_SECRET is set but NOTIFY_WEBHOOK_URL is not: set the receiver's URL too, or unset the secret",
      );
    return undefined;
  }
  if (secret === undefined)
    throw new ConfigError(
      "NOTIFY_WEBHOOK_URL is set but NOTIFY_WEBHOOK_SECRET is not: notifications are signed (Standard Webhooks); set NOTIFY_WEBHOOK_SECRET (or NOTIFY_WEBHOOK_SECRET_FILE) to the receiver's whsec_... secret",
    );
  return {
    name: 'webhook',
    type: 'webhook',
    url: targetUrl(url, 'NOTIFY_WEBHOOK_URL'),
    secret: parseWebhookSecret(secret, 'NOTIFY_WEBHOOK_SECRET'),
    filter: { events: ['denied'] },
    rate: DEFAULT_RATE,
    resolveAfterMs: DEFAULT_RESOLVE_AFTER_MS,
  };
}

function runUrlTemplate(env: NodeJS.ProcessEnv): string | undefined {
  const raw = env.NOTIFY_RUN_URL || undefined;
  if (raw === undefined) return defaultRunUrl(env.STEADYBIT_URL || undefined);
  const unknown = raw
    .match(/\{[^}]*\}/g)
    ?.filter((p) => !(RUN_LINK_PLACEHOLDERS as readonly string[]).includes(p.slice(1, -1)));
  if (unknown && unknown.length > 0)
    throw new ConfigError(
      `NOTIFY_RUN_URL: unknown placeholder ${unknown[0]}; use ${RUN_LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`,
    );
  targetUrl(raw.replace(/\{\w+\}/g, 'x'), 'NOTIFY_RUN_URL');
  return raw;
}

function duration(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number, max: number): number {
  const raw = (env[name] ?? '').trim();
  if (raw === '') return fallback;
  const ms = parseDuration(raw);
  if (ms === undefined || ms < min || ms > max)
    throw new ConfigError(
      `${name} must be a duration from ${min / 1000}s to ${max / 1000}s, such as 30s or 2m, got "${raw}"`,
    );
  return ms;
}

export const DEFAULT_EXCEPTION_HELP =
  'To run anyway, ask the owners of the policy for an Exception (kind: Exception, naming the policy, an owner, a reason and an expiry) in the policy repository.';

/** The notification settings of docs/notifications.md; a bad value is a ConfigError naming what to fix. */
export function parseNotifyConfig(env: NodeJS.ProcessEnv): NotifyConfig {
  const targets = [...(env.NOTIFY_TARGETS_FILE ? fromFile(env, env.NOTIFY_TARGETS_FILE) : [])];
  const simple = fromEnv(env);
  if (simple) {
    if (targets.some((t) => t.name === simple.name))
      throw new ConfigError(
        'NOTIFY_WEBHOOK_URL and a target named "webhook" in NOTIFY_TARGETS_FILE: rename that target or unset NOTIFY_WEBHOOK_URL',
      );
    targets.unshift(simple);
  }
  const seen = new Set<string>();
  for (const t of targets) {
    if (seen.has(t.name))
      throw new ConfigError(
        `NOTIFY_TARGETS_FILE names the target "${t.name}" twice: each target needs a name of its own`,
      );
    seen.add(t.name);
  }
  return {
    targets,
    runUrl: runUrlTemplate(env),
    exceptionHelp: (env.NOTIFY_EXCEPTION_HELP ?? '').trim() || DEFAULT_EXCEPTION_HELP,
    dedupeWindowMs: duration(env, 'NOTIFY_DEDUPE_WINDOW', 30_000, 0, 3_600_000),
    queueSize: envInteger(env, 'NOTIFY_QUEUE_SIZE', 500, 1, 100_000),
    timeoutMs: envInteger(env, 'NOTIFY_TIMEOUT_MS', 5000, 100, 60_000),
    maxAttempts: envInteger(env, 'NOTIFY_MAX_ATTEMPTS', 5, 1, 20),
  };
}
