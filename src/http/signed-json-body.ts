import type { IncomingMessage } from 'node:http';
import { finished } from 'node:stream';
import type { RequestHandler } from 'express';
import getRawBody from 'raw-body';
import { SIGNATURE_HEADER } from '../signature/sign';
import { verifySignature } from '../signature/verify-signature';
import type { Metrics } from '../observability/metrics';
import { parseStrictJson } from '../payload/parse-strict-json';
import { HttpError } from './http-error';

export interface SignedBodyOptions {
  secrets: readonly string[];
  bodyLimit: string | number;
  metrics: Metrics;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/i;
const SIGNATURE_HEADER_KEY = SIGNATURE_HEADER.toLowerCase();

/**
 * 415 unless the request says it carries JSON (`application/json`, with or without charset) in
 * UTF-8: a body labelled `charset=latin1` would be read here as UTF-8 and elsewhere as latin1.
 */
function requireJson(req: IncomingMessage): void {
  const [type, ...params] = (req.headers['content-type'] ?? '').split(';').map((p) => p.trim());
  if (!JSON_TYPE.test(type)) throw new HttpError(415, `unsupported content type "${type || '(none)'}": send the webhook payload as application/json`);
  for (const param of params) {
    const m = /^charset\s*=\s*"?([^"]*)"?$/i.exec(param);
    if (m && m[1].toLowerCase() !== 'utf-8') throw new HttpError(415, `unsupported charset "${m[1]}": JSON is UTF-8; send the payload as UTF-8 (charset=utf-8, or none)`);
  }
}

/**
 * 415 for a compressed body: the HMAC is checked over the bytes that arrived, never over a
 * decompressed copy, and nothing is decompressed before the signature is known good.
 */
function requireIdentityEncoding(req: IncomingMessage): void {
  // An empty header means no encoding, as body-parser read it.
  const encoding = (req.headers['content-encoding'] || 'identity').toLowerCase();
  if (encoding !== 'identity') {
    throw new HttpError(415, 'content encoding unsupported: send the webhook payload uncompressed (Content-Encoding: identity); its signature is checked over the bytes received');
  }
}

/** How long what still arrives of a body refused as too large is read off and dropped. */
const DISCARD_MS = 5000;

const tooLarge = (err: unknown) => (err as { type?: unknown }).type === 'entity.too.large';

/**
 * What still arrives of a refused body is read off and dropped while the answer goes out, so the
 * client reads the answer rather than a reset; a sender that has not stopped after DISCARD_MS
 * loses the connection (a chunked body has no end we could wait for).
 */
function discardRest(req: IncomingMessage): void {
  req.resume();
  if (req.complete) return;
  const cut = setTimeout(() => req.socket.destroy(), DISCARD_MS);
  cut.unref();
  finished(req, () => clearTimeout(cut));
}

/**
 * The body as received, at most `limit` bytes (raw-body: Content-Length checked before reading,
 * the stream cut off at the limit). Too large: refused at once, as soon as the limit is passed (a
 * chunked body declares no length to check first), the rest dropped as it comes. Aborted or short:
 * the rest of the request is read off first, so the client sees the answer instead of a reset.
 */
async function rawBody(req: IncomingMessage, limit: string | number): Promise<Buffer> {
  try {
    return await getRawBody(req, { length: req.headers['content-length'], limit });
  } catch (err) {
    if (tooLarge(err)) {
      discardRest(req);
      throw err;
    }
    await new Promise<void>((resolve) => {
      req.resume();
      finished(req, () => resolve());
    });
    throw err;
  }
}

/**
 * A signed webhook body: content type, raw body (size-limited), HMAC over exactly the bytes
 * received, then one strict parse (parse-strict-json.ts: no invalid UTF-8, no key given twice). Throws an HttpError (or raw-body's error, which toHttpError maps).
 */
export async function readSignedJson(req: IncomingMessage, opts: SignedBodyOptions): Promise<unknown> {
  requireJson(req);
  requireIdentityEncoding(req);
  const body = await rawBody(req, opts.bodyLimit);
  if (opts.secrets.length > 0) {
    const header = req.headers[SIGNATURE_HEADER_KEY];
    const result = verifySignature(Array.isArray(header) ? header[0] : header, body, opts.secrets);
    if (!result.ok) {
      opts.metrics.signatureFailures.inc({ reason: result.reason });
      throw new HttpError(401, result.message);
    }
  }
  const parsed = parseStrictJson(body);
  if (!parsed.ok) throw new HttpError(400, `the body ${parsed.message}`);
  return parsed.value;
}

/** readSignedJson as Express middleware (POST /events): the parsed body is left in `res.locals.body`. */
export function signedJsonBody(opts: SignedBodyOptions): RequestHandler {
  return (req, res, next) => {
    readSignedJson(req, opts).then((body) => {
      res.locals.body = body;
      next();
    }, next);
  };
}
