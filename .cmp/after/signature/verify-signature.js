"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.startSignatureCheck = startSignatureCheck;
exports.verifySignature = verifySignature;
const node_crypto_1 = require("node:crypto");
const sign_1 = require("./sign");
const DIGEST_BYTES = 32;
const HEX = /^[0-9a-fA-F]+$/;
/** The digest an `X-SB-Signature` header claims, or why the header cannot be read. */
function claimedDigest(header) {
    if (header === undefined) {
        return {
            ok: false,
            reason: 'missing',
            message: 'missing X-SB-Signature header: a webhook secret is configured, so every request must be signed',
        };
    }
    if (header.trim() === '') {
        return {
            ok: false,
            reason: 'missing',
            message: `empty X-SB-Signature header: expected "${sign_1.SIGNATURE_PREFIX} <hex digest>" (a webhook secret is configured, so every request must be signed)`,
        };
    }
    const match = /^(\S+) +(\S*)$/.exec(header.trim());
    if (!match || match[1] !== sign_1.SIGNATURE_PREFIX) {
        return {
            ok: false,
            reason: 'malformed',
            message: `malformed X-SB-Signature header: expected "${sign_1.SIGNATURE_PREFIX} <hex digest>"`,
        };
    }
    const hex = match[2];
    if (hex.length !== DIGEST_BYTES * 2 || !HEX.test(hex)) {
        return {
            ok: false,
            reason: 'malformed',
            message: `malformed X-SB-Signature header: the digest must be ${DIGEST_BYTES * 2} hex characters`,
        };
    }
    return Buffer.from(hex, 'hex');
}
/**
 * Starts checking `X-SB-Signature: hmac-sha256 <hex>` over the raw bytes as they arrive, one
 * HMAC per configured secret (several secrets allow rotation). A header that is missing or
 * malformed is refused before any byte of the body is read; the digests are compared (constant
 * time, lengths first) once the last byte went through `update`.
 */
function startSignatureCheck(header, secrets) {
    const received = claimedDigest(header);
    if (!Buffer.isBuffer(received))
        return received;
    const hmacs = secrets.map((secret) => (0, node_crypto_1.createHmac)('sha256', Buffer.from(secret, 'utf8')));
    return {
        update: (chunk) => {
            for (const hmac of hmacs)
                hmac.update(chunk);
        },
        result: () => {
            const digests = hmacs.map((hmac) => hmac.digest());
            // Every digest is compared (no early exit): the time taken does not say which secret matched.
            let matched = -1;
            digests.forEach((digest, i) => {
                if ((0, node_crypto_1.timingSafeEqual)(digest, received) && matched === -1)
                    matched = i;
            });
            if (matched !== -1)
                return { ok: true, secret: matched };
            return {
                ok: false,
                reason: 'mismatch',
                message: 'X-SB-Signature does not match the request body for any configured secret',
            };
        },
    };
}
/**
 * Checks `X-SB-Signature: hmac-sha256 <hex>` over exactly the raw bytes received, against each
 * configured secret. Expected failures are values, not throws.
 */
function verifySignature(header, rawBody, secrets) {
    const check = startSignatureCheck(header, secrets);
    if (!('update' in check))
        return check;
    check.update(rawBody);
    return check.result();
}
//# sourceMappingURL=verify-signature.js.map