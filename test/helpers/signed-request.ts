import request from 'supertest';
import type { App } from '../../src/service/create-app';
import { signatureHeader } from '../../src/signature/sign';

export interface SignedRequestOptions {
  path?: string;
  secret?: string;
  /** Replace the header value entirely. */
  signature?: string;
  omitHeader?: 'x-sb-signature' | 'content-type';
  contentType?: string;
  query?: Record<string, string>;
}

/** A POST the way Steadybit sends it: raw JSON bytes, content type, and the HMAC of those bytes. */
export function signedRequest(app: App, body: Buffer | string | object, opts: SignedRequestOptions = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  let req = request(app)
    .post(opts.path ?? '/preflight')
    .query(opts.query ?? {});
  if (opts.omitHeader !== 'content-type') req = req.set('content-type', opts.contentType ?? 'application/json');
  if (opts.omitHeader !== 'x-sb-signature' && (opts.secret !== undefined || opts.signature !== undefined)) {
    req = req.set('x-sb-signature', opts.signature ?? signatureHeader(opts.secret as string, raw));
  }
  // superagent JSON-serialises anything but a string when the content type is JSON (a Buffer
  // would go out as {"type":"Buffer","data":[...]}): send the signed bytes as they are.
  return req.serialize(sendAsIs).send(raw);
}

/** Typed as superagent's string serializer; returns the Buffer untouched, which the request writes as is. */
const sendAsIs = (raw: Buffer) => raw as unknown as string;
