import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../observability/logger';
import { HttpError } from './http-error';

interface BodyParserError { type?: string; status?: number; expose?: boolean; message: string; limit?: number }

/** Maps every error to a status and a JSON `{"message"}`: the ONE place that does so. */
export function toHttpError(err: unknown): HttpError {
  if (err instanceof HttpError) return err;
  const bp = err as BodyParserError;
  if (bp && typeof bp === 'object') {
    if (bp.type === 'entity.too.large') return new HttpError(413, `the body is larger than the limit of ${bp.limit ?? '?'} bytes (BODY_LIMIT)`);
    if (bp.type === 'encoding.unsupported') return new HttpError(415, `${bp.message}: send the webhook payload uncompressed (Content-Encoding: identity); its signature is checked over the bytes received`);
    if (bp.type === 'charset.unsupported') return new HttpError(415, bp.message);
    if (bp.type === 'request.aborted' || bp.type === 'entity.verify.failed' || bp.type === 'request.size.invalid') return new HttpError(400, bp.message);
  }
  return new HttpError(500, 'internal error in preflight-gate: no decision could be made, so the run is denied; see the service log');
}

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const httpError = toHttpError(err);
    // A 503 is a known state (no policy set, state store down), said once per request as a warning;
    // anything else at 500 is a bug, logged with its stack.
    if (httpError.status === 503) logger.warn('request refused', { path: req.path, status: 503, reason: httpError.message });
    else if (httpError.status >= 500) logger.error('request failed', { path: req.path, error: err instanceof Error ? err.stack : String(err) });
    res.locals.error = httpError;
    res.status(httpError.status).json({ message: httpError.message, ...httpError.details });
  };
}
