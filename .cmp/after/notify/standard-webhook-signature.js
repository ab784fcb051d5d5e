"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.parseWebhookSecret = parseWebhookSecret;
exports.signWebhook = signWebhook;
const node_crypto_1 = require("node:crypto");
const env_values_1 = require("../common/env-values");
const PREFIX = 'whsec_';
/**
 * `whsec_<base64>` -> the key. The Standard Webhooks specification asks for a key of 24 to 64
 * random bytes; anything else is a ConfigError naming `where` (the secret itself is never shown).
 */
function parseWebhookSecret(raw, where) {
    const text = raw.trim();
    if (!text.startsWith(PREFIX))
        throw new env_values_1.ConfigError(`${where} must be a Standard Webhooks secret, whsec_ followed by base64 (e.g. from: echo "whsec_$(openssl rand -base64 32)")`);
    const base64 = text.slice(PREFIX.length);
    const key = Buffer.from(base64, 'base64');
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64) ||
        key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')) {
        throw new env_values_1.ConfigError(`${where}: the part after whsec_ is not base64`);
    }
    if (key.length < 24 || key.length > 64)
        throw new env_values_1.ConfigError(`${where}: the key must be 24 to 64 bytes (32 to 88 base64 characters), got ${key.length} bytes`);
    return { key };
}
/** The headers of a signed delivery: `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64>`). */
function signWebhook(secret, id, timestampSeconds, body) {
    const signature = (0, node_crypto_1.createHmac)('sha256', secret.key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
    return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
//# sourceMappingURL=standard-webhook-signature.js.map