import request from 'supertest';
import type { Express } from 'express';
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
export function signedRequest(app: Express, body: Buffer | string | object, opts: SignedRequestOptions = {}) {
  const raw = Buffer.isBuffer(body) ? body : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  let req = request(app).post(opts.path ?? '/preflight').query(opts.query ?? {});
  if (opts.omitHeader !== 'content-type') req = req.set('content-type', opts.contentType ?? 'application/json');
  if (opts.omitHeader !== 'x-sb-signature' && (opts.secret !== undefined || opts.signature !== undefined)) {
    req = req.set('x-sb-signature', opts.signature ?? signatureHeader(opts.secret as string, raw));
  }
  return req.send(raw);
}
