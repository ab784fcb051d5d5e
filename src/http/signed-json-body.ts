import express, { type RequestHandler } from 'express';
import { SIGNATURE_HEADER } from '../signature/sign';
import { verifySignature } from '../signature/verify-signature';
import type { Metrics } from '../observability/metrics';
import { HttpError } from './http-error';

export interface SignedBodyOptions {
  secrets: readonly string[];
  bodyLimit: string | number;
  metrics: Metrics;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/i;

/** 415 unless the request says it carries JSON (`application/json`, with or without charset). */
const requireJson: RequestHandler = (req, _res, next) => {
  const type = (req.headers['content-type'] ?? '').split(';')[0].trim();
  if (!JSON_TYPE.test(type)) {
    next(new HttpError(415, `unsupported content type "${type || '(none)'}": send the webhook payload as application/json`));
    return;
  }
  next();
};

/**
 * The middleware chain of a signed webhook route: content type, raw body (size-limited), HMAC over
 * exactly the bytes received, then one JSON.parse. The parsed body is left in `res.locals.body`.
 */
export function signedJsonBody(opts: SignedBodyOptions): RequestHandler[] {
  // inflate: false: the HMAC is checked over the bytes that arrived, never over a decompressed
  // copy, and nothing is decompressed before the signature is known good (a compressed body is a 415).
  const raw = express.raw({ type: () => true, limit: opts.bodyLimit, inflate: false });
  const verifyAndParse: RequestHandler = (req, res, next) => {
    const body: Buffer = Buffer.isBuffer(req.body) ? req.body : Buffer.alloc(0);
    if (opts.secrets.length > 0) {
      const result = verifySignature(req.header(SIGNATURE_HEADER), body, opts.secrets);
      if (!result.ok) {
        opts.metrics.signatureFailures.inc({ reason: result.reason });
        next(new HttpError(401, result.message));
        return;
      }
    }
    try {
      res.locals.body = JSON.parse(body.toString('utf8')) as unknown;
    } catch (err) {
      next(new HttpError(400, `the body is not valid JSON: ${(err as Error).message}`));
      return;
    }
    next();
  };
  return [requireJson, raw, verifyAndParse];
}
