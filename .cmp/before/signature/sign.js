"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.SIGNATURE_PREFIX = exports.SIGNATURE_HEADER = void 0;
exports.signHex = signHex;
exports.signatureHeader = signatureHeader;
const node_crypto_1 = require("node:crypto");
exports.SIGNATURE_HEADER = 'x-sb-signature';
exports.SIGNATURE_PREFIX = 'hmac-sha256';
/** HMAC-SHA256 of the raw body keyed with the secret's UTF-8 bytes, as lower-case hex. */
function signHex(secret, body) {
    return (0, node_crypto_1.createHmac)('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}
/** The full `X-SB-Signature` header value Steadybit sends: `hmac-sha256 <hex>`. */
function signatureHeader(secret, body) {
    return `${exports.SIGNATURE_PREFIX} ${signHex(secret, body)}`;
}
//# sourceMappingURL=sign.js.map