import { createHmac } from 'node:crypto';

export const SIGNATURE_HEADER = 'x-sb-signature';
export const SIGNATURE_PREFIX = 'hmac-sha256';

/** HMAC-SHA256 of the raw body keyed with the secret's UTF-8 bytes, as lower-case hex. */
export function signHex(secret: string, body: Buffer | string): string {
  return createHmac('sha256', Buffer.from(secret, 'utf8')).update(body).digest('hex');
}

/** The full `X-SB-Signature` header value Steadybit sends: `hmac-sha256 <hex>`. */
export function signatureHeader(secret: string, body: Buffer | string): string {
  return `${SIGNATURE_PREFIX} ${signHex(secret, body)}`;
}
