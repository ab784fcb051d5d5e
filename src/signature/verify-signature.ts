import { createHmac, timingSafeEqual } from 'node:crypto';
import { SIGNATURE_PREFIX } from './sign';

export type SignatureFailure = 'missing' | 'malformed' | 'mismatch';
export type SignatureResult = { ok: true } | { ok: false; reason: SignatureFailure; message: string };

const DIGEST_BYTES = 32;
const HEX = /^[0-9a-fA-F]+$/;

/**
 * Checks `X-SB-Signature: hmac-sha256 <hex>` over exactly the raw bytes received, against each
 * configured secret (several secrets allow rotation). Expected failures are values, not throws.
 */
export function verifySignature(header: string | undefined, rawBody: Buffer, secrets: readonly string[]): SignatureResult {
  if (header === undefined) {
    return { ok: false, reason: 'missing', message: 'missing X-SB-Signature header: a webhook secret is configured, so every request must be signed' };
  }
  if (header.trim() === '') {
    return { ok: false, reason: 'missing', message: `empty X-SB-Signature header: expected "${SIGNATURE_PREFIX} <hex digest>" (a webhook secret is configured, so every request must be signed)` };
  }
  const match = /^(\S+) +(\S*)$/.exec(header.trim());
  if (!match || match[1] !== SIGNATURE_PREFIX) {
    return { ok: false, reason: 'malformed', message: `malformed X-SB-Signature header: expected "${SIGNATURE_PREFIX} <hex digest>"` };
  }
  const hex = match[2];
  if (hex.length !== DIGEST_BYTES * 2 || !HEX.test(hex)) {
    return { ok: false, reason: 'malformed', message: `malformed X-SB-Signature header: the digest must be ${DIGEST_BYTES * 2} hex characters` };
  }
  const received = Buffer.from(hex, 'hex');
  for (const secret of secrets) {
    const expected = createHmac('sha256', Buffer.from(secret, 'utf8')).update(rawBody).digest();
    if (timingSafeEqual(expected, received)) return { ok: true };
  }
  return { ok: false, reason: 'mismatch', message: 'X-SB-Signature does not match the request body for any configured secret' };
}
