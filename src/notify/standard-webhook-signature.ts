import { createHmac } from 'node:crypto';
import { ConfigError } from '../common/env-values';

/** A Standard Webhooks signing key: the bytes of the base64 part of `whsec_<base64>`. */
export interface WebhookSecret {
  key: Buffer;
}

const PREFIX = 'whsec_';

/**
 * `whsec_<base64>` -> the key. The Standard Webhooks specification asks for a key of 24 to 64
 * random bytes; anything else is a ConfigError naming `where` (the secret itself is never shown).
 */
export function parseWebhookSecret(raw: string, where: string): WebhookSecret {
  const text = raw.trim();
  if (!text.startsWith(PREFIX))
    throw new ConfigError(
      `${where} must be a Standard Webhooks secret, whsec_ followed by base64 (e.g. from: echo "whsec_$(openssl rand -base64 32)")`,
    );
  const base64 = text.slice(PREFIX.length);
  const key = Buffer.from(base64, 'base64');
  if (
    !/^[A-Za-z0-9+/]+={0,2}$/.test(base64) ||
    key.toString('base64').replace(/=+$/, '') !== base64.replace(/=+$/, '')
  ) {
    throw new ConfigError(`${where}: the part after whsec_ is not base64`);
  }
  if (key.length < 24 || key.length > 64)
    throw new ConfigError(
      `${where}: the key must be 24 to 64 bytes (32 to 88 base64 characters), got ${key.length} bytes`,
    );
  return { key };
}

/** The headers of a signed delivery: `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` (`v1,<base64>`). */
export function signWebhook(
  secret: WebhookSecret,
  id: string,
  timestampSeconds: number,
  body: string,
): Record<string, string> {
  const signature = createHmac('sha256', secret.key).update(`${id}.${timestampSeconds}.${body}`).digest('base64');
  return { 'webhook-id': id, 'webhook-timestamp': String(timestampSeconds), 'webhook-signature': `v1,${signature}` };
}
