"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.DEFAULT_EXCEPTION_HELP = exports.DEFAULT_RATE = void 0;
exports.parseNotifyConfig = parseNotifyConfig;
const node_fs_1 = require("node:fs");
const yaml_1 = require("yaml");
const env_values_1 = require("../common/env-values");
const duration_1 = require("../syntax/duration");
const field_errors_1 = require("../validation/field-errors");
const notify_targets_file_schema_1 = require("./generated/notify-targets-file-schema");
const run_link_1 = require("./run-link");
const standard_webhook_signature_1 = require("./standard-webhook-signature");
/** The default rate limit of a target: Slack allows about one message a second per incoming webhook. */
exports.DEFAULT_RATE = { perMinute: 30, burst: 10 };
/** How long an Alertmanager alert about one run stays firing unless the target says otherwise. */
const DEFAULT_RESOLVE_AFTER_MS = 3_600_000;
const readText = (file, where) => {
    try {
        return (0, node_fs_1.readFileSync)(file, 'utf8').replace(/\r?\n$/, '');
    }
    catch (err) {
        throw new env_values_1.ConfigError(`${where}: cannot read ${file} (${err instanceof Error ? err.message : String(err)})`);
    }
};
/** An http(s) URL, checked now so a typo shows at start-up; the message never repeats it (it may hold a token). */
function targetUrl(raw, where) {
    let url;
    try {
        url = new URL(raw.trim());
    }
    catch {
        throw new env_values_1.ConfigError(`${where} is not a URL: give the full https:// address the receiver gave you`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
        throw new env_values_1.ConfigError(`${where} must start with https:// (or http://), got ${url.protocol}`);
    return url.href;
}
/** A value given inline, from a named environment variable, or from a file (a mounted Secret): exactly one. */
function oneOf(env, where, field, inline, fromEnv, fromFile) {
    const given = [inline, fromEnv, fromFile].filter((v) => v !== undefined).length;
    if (given > 1)
        throw new env_values_1.ConfigError(`${where}: give one of ${field}, ${field}Env and ${field}File`);
    if (inline !== undefined)
        return inline;
    if (fromEnv !== undefined) {
        const value = env[fromEnv];
        if (value === undefined || value === '')
            throw new env_values_1.ConfigError(`${where}.${field}Env: the environment variable ${fromEnv} is not set`);
        return value;
    }
    return fromFile === undefined ? undefined : readText(fromFile, `${where}.${field}File`);
}
function fromEntry(env, e, where) {
    const url = oneOf(env, where, 'url', e.url, e.urlEnv, e.urlFile);
    if (url === undefined)
        throw new env_values_1.ConfigError(`${where}: give url, urlEnv or urlFile (a Slack or Teams URL is a secret: prefer urlEnv or urlFile)`);
    const secret = oneOf(env, where, 'secret', e.secret, e.secretEnv, e.secretFile);
    if (e.type === 'webhook' && secret === undefined)
        throw new env_values_1.ConfigError(`${where}: a webhook target is signed: give secret, secretEnv or secretFile (whsec_ and base64, docs/notifications.md)`);
    if (e.type !== 'webhook' && secret !== undefined)
        throw new env_values_1.ConfigError(`${where}: only webhook targets are signed; ${e.type} takes no secret`);
    if (e.type !== 'alertmanager' && e.resolveAfter !== undefined)
        throw new env_values_1.ConfigError(`${where}.resolveAfter: only alertmanager targets resolve their alerts`);
    const resolveAfterMs = e.resolveAfter === undefined ? DEFAULT_RESOLVE_AFTER_MS : (0, duration_1.parseDuration)(e.resolveAfter);
    if (resolveAfterMs === undefined || resolveAfterMs < 60_000)
        throw new env_values_1.ConfigError(`${where}.resolveAfter must be a duration of at least 1m, such as 1h, got "${e.resolveAfter}"`);
    return {
        name: e.name,
        type: e.type,
        url: targetUrl(url, `${where}.url`),
        ...(secret !== undefined ? { secret: (0, standard_webhook_signature_1.parseWebhookSecret)(secret, `${where}.secret`) } : {}),
        filter: { events: e.events, teams: e.teams, environments: e.environments, policies: e.policies, modes: e.modes },
        rate: { ...exports.DEFAULT_RATE, ...e.rateLimit },
        resolveAfterMs,
    };
}
function fromFile(env, file) {
    let doc;
    try {
        doc = (0, yaml_1.parse)(readText(file, 'NOTIFY_TARGETS_FILE'));
    }
    catch (err) {
        if (err instanceof env_values_1.ConfigError)
            throw err;
        throw new env_values_1.ConfigError(`NOTIFY_TARGETS_FILE ${file} is not valid YAML: ${err instanceof Error ? err.message : String(err)}`);
    }
    if (!(0, notify_targets_file_schema_1.validateNotifyTargetsFile)(doc)) {
        throw new env_values_1.ConfigError(`NOTIFY_TARGETS_FILE ${file} is invalid: ${(0, field_errors_1.toFieldErrors)(notify_targets_file_schema_1.validateNotifyTargetsFile.errors, (0, field_errors_1.validated)(notify_targets_file_schema_1.validateNotifyTargetsFile, doc))
            .map((e) => `${e.path}: ${e.message}`)
            .join('; ')}`);
    }
    return doc.targets.map((e, i) => fromEntry(env, e, `NOTIFY_TARGETS_FILE ${file}: targets[${i}] (${e.name})`));
}
/** NOTIFY_WEBHOOK_URL + NOTIFY_WEBHOOK_SECRET(_FILE): the simplest setup, a generic webhook told of denials. */
function fromEnv(env) {
    const url = env.NOTIFY_WEBHOOK_URL || undefined;
    const secret = oneOf(env, 'NOTIFY_WEBHOOK_SECRET', 'secret', env.NOTIFY_WEBHOOK_SECRET || undefined, undefined, env.NOTIFY_WEBHOOK_SECRET_FILE || undefined);
    if (url === undefined) {
        if (secret !== undefined)
            throw new env_values_1.ConfigError("NOTIFY_WEBHOOK_SECRET is set but NOTIFY_WEBHOOK_URL is not: set the receiver's URL too, or unset the secret");
        return undefined;
    }
    if (secret === undefined)
        throw new env_values_1.ConfigError("NOTIFY_WEBHOOK_URL is set but NOTIFY_WEBHOOK_SECRET is not: notifications are signed (Standard Webhooks); set NOTIFY_WEBHOOK_SECRET (or NOTIFY_WEBHOOK_SECRET_FILE) to the receiver's whsec_... secret");
    return {
        name: 'webhook',
        type: 'webhook',
        url: targetUrl(url, 'NOTIFY_WEBHOOK_URL'),
        secret: (0, standard_webhook_signature_1.parseWebhookSecret)(secret, 'NOTIFY_WEBHOOK_SECRET'),
        filter: { events: ['denied'] },
        rate: exports.DEFAULT_RATE,
        resolveAfterMs: DEFAULT_RESOLVE_AFTER_MS,
    };
}
function runUrlTemplate(env) {
    const raw = env.NOTIFY_RUN_URL || undefined;
    if (raw === undefined)
        return (0, run_link_1.defaultRunUrl)(env.STEADYBIT_URL || undefined);
    const unknown = raw
        .match(/\{[^}]*\}/g)
        ?.filter((p) => !run_link_1.RUN_LINK_PLACEHOLDERS.includes(p.slice(1, -1)));
    if (unknown && unknown.length > 0)
        throw new env_values_1.ConfigError(`NOTIFY_RUN_URL: unknown placeholder ${unknown[0]}; use ${run_link_1.RUN_LINK_PLACEHOLDERS.map((p) => `{${p}}`).join(', ')}`);
    targetUrl(raw.replace(/\{\w+\}/g, 'x'), 'NOTIFY_RUN_URL');
    return raw;
}
function duration(env, name, fallback, min, max) {
    const raw = (env[name] ?? '').trim();
    if (raw === '')
        return fallback;
    const ms = (0, duration_1.parseDuration)(raw);
    if (ms === undefined || ms < min || ms > max)
        throw new env_values_1.ConfigError(`${name} must be a duration from ${min / 1000}s to ${max / 1000}s, such as 30s or 2m, got "${raw}"`);
    return ms;
}
exports.DEFAULT_EXCEPTION_HELP = 'To run anyway, ask the owners of the policy for an Exception (kind: Exception, naming the policy, an owner, a reason and an expiry) in the policy repository.';
/** The notification settings of docs/notifications.md; a bad value is a ConfigError naming what to fix. */
function parseNotifyConfig(env) {
    const targets = [...(env.NOTIFY_TARGETS_FILE ? fromFile(env, env.NOTIFY_TARGETS_FILE) : [])];
    const simple = fromEnv(env);
    if (simple) {
        if (targets.some((t) => t.name === simple.name))
            throw new env_values_1.ConfigError('NOTIFY_WEBHOOK_URL and a target named "webhook" in NOTIFY_TARGETS_FILE: rename that target or unset NOTIFY_WEBHOOK_URL');
        targets.unshift(simple);
    }
    const seen = new Set();
    for (const t of targets) {
        if (seen.has(t.name))
            throw new env_values_1.ConfigError(`NOTIFY_TARGETS_FILE names the target "${t.name}" twice: each target needs a name of its own`);
        seen.add(t.name);
    }
    return {
        targets,
        runUrl: runUrlTemplate(env),
        exceptionHelp: (env.NOTIFY_EXCEPTION_HELP ?? '').trim() || exports.DEFAULT_EXCEPTION_HELP,
        dedupeWindowMs: duration(env, 'NOTIFY_DEDUPE_WINDOW', 30_000, 0, 3_600_000),
        queueSize: (0, env_values_1.envInteger)(env, 'NOTIFY_QUEUE_SIZE', 500, 1, 100_000),
        timeoutMs: (0, env_values_1.envInteger)(env, 'NOTIFY_TIMEOUT_MS', 5000, 100, 60_000),
        maxAttempts: (0, env_values_1.envInteger)(env, 'NOTIFY_MAX_ATTEMPTS', 5, 1, 20),
    };
}
//# sourceMappingURL=notify-config.js.map