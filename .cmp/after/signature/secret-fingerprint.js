"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.fingerprint = fingerprint;
const node_crypto_1 = require("node:crypto");
/**
 * A secret as `sha256:1a2b3c4d` (the first 8 hex digits of its SHA-256): tells secrets apart in
 * metrics, logs and `connect`'s diff without showing them. It narrows a guess of a weak secret,
 * so the secrets are meant to be long and random (`openssl rand -hex 32`).
 */
function fingerprint(secret) {
    return `sha256:${(0, node_crypto_1.createHash)('sha256').update(secret, 'utf8').digest('hex').slice(0, 8)}`;
}
//# sourceMappingURL=secret-fingerprint.js.map