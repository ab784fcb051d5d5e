"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fixedSecrets = fixedSecrets;
exports.parseSecretFile = parseSecretFile;
exports.readSecretFile = readSecretFile;
exports.secretFile = secretFile;
const node_fs_1 = require("node:fs");
const env_values_1 = require("../common/env-values");
const secret_fingerprint_1 = require("./secret-fingerprint");
const listOf = (secrets) => ({ secrets, fingerprints: secrets.map(secret_fingerprint_1.fingerprint) });
/** WEBHOOK_SECRET: fixed for the life of the process. */
function fixedSecrets(secrets) {
    const list = listOf(secrets);
    return { current: () => list };
}
/**
 * The secrets of a WEBHOOK_SECRET_FILE: one per line (or separated by commas, as in WEBHOOK_SECRET,
 * so one Secret value serves both); blank entries and surrounding spaces are ignored, a line starting
 * with `#` is a comment.
 */
function parseSecretFile(text) {
    return text
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter((l) => !l.startsWith('#'))
        .flatMap((l) => l.split(','))
        .map((s) => s.trim())
        .filter((s) => s !== '');
}
/** Reads WEBHOOK_SECRET_FILE at start-up: a ConfigError when it cannot be read or holds no secret. */
function readSecretFile(path) {
    let text;
    try {
        text = (0, node_fs_1.readFileSync)(path, 'utf8');
    }
    catch (err) {
        throw new env_values_1.ConfigError(`WEBHOOK_SECRET_FILE ${path} cannot be read (${err.code ?? err.message})`);
    }
    const secrets = parseSecretFile(text);
    if (secrets.length === 0)
        throw new env_values_1.ConfigError(`WEBHOOK_SECRET_FILE ${path} holds no secret: one per line (during a rotation, the new and the old one)`);
    return secrets;
}
/**
 * WEBHOOK_SECRET_FILE, re-read while the service runs: a Kubernetes Secret mounted as a file is
 * updated by swapping a symlink, so the file is read again (synchronously, a few bytes) when a
 * request needs the secrets and the last read is older than a second; a rotation takes effect
 * without a restart. A change is logged with the fingerprints. While the file cannot be read or
 * holds no secret (a rotation half done), the last secrets read keep being used, with a warning:
 * never no secret, which would refuse every run, nor an unsigned gate.
 */
function secretFile(path, initial, deps) {
    const now = deps.now ?? Date.now;
    const every = deps.checkEveryMs ?? 1000;
    let list = listOf(initial);
    let text = initial.join('\n');
    let checkedAt = now();
    let warned = false;
    const reload = () => {
        let secrets;
        try {
            secrets = parseSecretFile((0, node_fs_1.readFileSync)(path, 'utf8'));
        }
        catch (err) {
            secrets = [];
            if (!warned)
                deps.logger.warn('WEBHOOK_SECRET_FILE cannot be read; the secrets read before stay in use', {
                    path,
                    error: err.code ?? err.message,
                });
            warned = true;
            return;
        }
        if (secrets.length === 0) {
            if (!warned)
                deps.logger.warn('WEBHOOK_SECRET_FILE holds no secret; the secrets read before stay in use', { path });
            warned = true;
            return;
        }
        warned = false;
        if (secrets.join('\n') === text)
            return;
        const before = list.fingerprints;
        text = secrets.join('\n');
        list = listOf(secrets);
        deps.logger.info('webhook secrets changed (WEBHOOK_SECRET_FILE)', { path, before, after: list.fingerprints });
    };
    return {
        current() {
            if (now() - checkedAt >= every) {
                checkedAt = now();
                reload();
            }
            return list;
        },
    };
}
//# sourceMappingURL=webhook-secrets.js.map