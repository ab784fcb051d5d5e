import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import { SIGNATURE_HEADER } from '../signature/sign';
import { startSignatureCheck, type SignatureCheck } from '../signature/verify-signature';
import type { Metrics } from '../observability/metrics';
import type { SecretList, WebhookSecrets } from '../signature/webhook-secrets';
import { parseStrictJson } from '../payload/parse-strict-json';
import type { BodyBudget } from './body-budget';
import { HttpError } from './http-error';
import { readBody, refuseBeforeReading } from './read-body';

export interface SignedBodyOptions {
  /** WEBHOOK_SECRET (fixed) or WEBHOOK_SECRET_FILE (re-read); none: signatures are off. */
  secrets: WebhookSecrets;
  /** BODY_LIMIT in bytes. */
  bodyLimit: number;
  metrics: Metrics;
  /** Bounds the bytes of bodies read or decided at once (BODY_BUDGET), shared by every route that reads one. */
  budget: BodyBudget;
}

const JSON_TYPE = /^application\/([\w.+-]+\+)?json$/i;
const SIGNATURE_HEADER_KEY = SIGNATURE_HEADER.toLowerCase();

/**
 * 415 unless the request says it carries JSON (`application/json`, with or without charset) in
 * UTF-8: a body labelled `charset=latin1` would be read here as UTF-8 and elsewhere as latin1.
 */
function requireJson(req: IncomingMessage): void {
  const [type, ...params] = (req.headers['content-type'] ?? '').split(';').map((p) => p.trim());
  if (!JSON_TYPE.test(type))
    throw new HttpError(
      415,
      `unsupported content type "${type || '(none)'}": send the webhook payload as application/json`,
    );
  for (const param of params) {
    const m = /^charset\s*=\s*"?([^"]*)"?$/i.exec(param);
    if (m && m[1].toLowerCase() !== 'utf-8')
      throw new HttpError(
        415,
        `unsupported charset "${m[1]}": JSON is UTF-8; send the payload as UTF-8 (charset=utf-8, or none)`,
      );
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
    throw new HttpError(
      415,
      'content encoding unsupported: send the webhook payload uncompressed (Content-Encoding: identity); its signature is checked over the bytes received',
    );
  }
}

/** The signature check of a request, started before its body is read; undefined when signatures are off. */
function signatureCheck(req: IncomingMessage, opts: SignedBodyOptions, list: SecretList): SignatureCheck | undefined {
  if (list.secrets.length === 0) return undefined;
  const header = req.headers[SIGNATURE_HEADER_KEY];
  const check = startSignatureCheck(Array.isArray(header) ? header[0] : header, list.secrets);
  if ('update' in check) return check;
  opts.metrics.signatureFailures.inc({ reason: check.reason });
  throw new HttpError(401, check.message);
}

/** `checks`, with the body dropped as it arrives when they refuse it (read-body.ts: refuseBeforeReading). */
function refusedBeforeReading<T>(req: IncomingMessage, res: ServerResponse, checks: () => T): T {
  try {
    return checks();
  } catch (err) {
    refuseBeforeReading(req, res);
    throw err;
  }
}

/**
 * A signed webhook body: content type, signature header (401 before a byte is read when it is
 * missing or malformed), the raw body within BODY_LIMIT and the body budget (read-body.ts) with its
 * HMAC computed as the bytes arrive, then, once the signature is known good, one strict parse
 * (parse-strict-json.ts: no invalid UTF-8, no key given twice). Throws an HttpError. A body refused
 * before it is read is dropped as it arrives, never held.
 */
export async function readSignedJson(
  req: IncomingMessage,
  res: ServerResponse,
  opts: SignedBodyOptions,
): Promise<unknown> {
  // The secrets as they are when the request arrives: a rotation in between does not mix lists.
  const list = opts.secrets.current();
  const check = refusedBeforeReading(req, res, () => {
    requireJson(req);
    requireIdentityEncoding(req);
    return signatureCheck(req, opts, list);
  });
  const body = await readBody(req, res, {
    limit: opts.bodyLimit,
    budget: opts.budget,
    onChunk: check ? (chunk) => check.update(chunk) : () => undefined,
  });
  const verified = check?.result();
  if (verified && !verified.ok) {
    opts.metrics.signatureFailures.inc({ reason: verified.reason });
    throw new HttpError(401, verified.message);
  }
  // Which secret verified it: during a rotation, the old one's count falling to 0 says Steadybit switched.
  if (verified) opts.metrics.countVerified(list.fingerprints[verified.secret]);
  const parsed = parseStrictJson(body);
  if (!parsed.ok) throw new HttpError(400, `the body ${parsed.message}`);
  return parsed.value;
}

/** readSignedJson as Express middleware (POST /events): the parsed body is left in `res.locals.body`. */
export function signedJsonBody(opts: SignedBodyOptions): RequestHandler {
  return (req, res, next) => {
    readSignedJson(req, res, opts).then((body) => {
      res.locals.body = body;
      next();
    }, next);
  };
}
