import { signatureHeader } from '../../src/signature/sign';

/**
 * A POST to a running service (over the network; `signedRequest` is the in-process one) the way
 * Steadybit sends it: raw JSON bytes, their content type, and the HMAC of exactly those bytes.
 */
export function signedPost(url: string, body: Buffer | string | object, secret: string): Promise<Response> {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return fetch(url, {
    method: 'POST',
    body: raw,
    headers: { 'content-type': 'application/json', 'x-sb-signature': signatureHeader(secret, raw) },
  });
}
