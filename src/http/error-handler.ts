import type { ErrorRequestHandler } from 'express';
import type { Logger } from '../common/logger';
import { HttpError } from './http-error';

/** Maps every error to a status and a JSON `{"message"}`: the ONE place that does so. */
export function toHttpError(err: unknown): HttpError {
  // Body reading errors are HttpErrors already (read-body.ts); anything else is a bug.
  if (err instanceof HttpError) return err;
  return new HttpError(
    500,
    'internal error in preflight-gate: no decision could be made, so the run is denied; see the service log',
  );
}

/** The state store could not record an event: 503, so Steadybit delivers it again. */
export function eventNotRecordedError(unavailable: { message: string }): HttpError {
  return new HttpError(
    503,
    `the state store is unavailable (${unavailable.message}); the event was not recorded, deliver it again`,
  );
}

/** A fact source that could not answer (the state store is down): the run is refused, 503, saying why. */
export function factsUnavailableError(unavailable: { source: string; message: string }): HttpError {
  return new HttpError(503, unavailable.message);
}

/**
 * toHttpError, logged: a 503 is a known state (no policy set, state store down), said once per
 * request as a warning; anything else at 500 is a bug, logged with its stack.
 */
export function reportError(err: unknown, path: string, logger: Logger): HttpError {
  const httpError = toHttpError(err);
  if (httpError.status === 503) logger.warn('request refused', { path, status: 503, reason: httpError.message });
  else if (httpError.status >= 500)
    logger.error('request failed', { path, error: err instanceof Error ? err.stack : String(err) });
  return httpError;
}

/** The JSON body of an error answer. */
export const errorBody = (error: HttpError) => ({ message: error.message, ...error.details });

export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (err, req, res, _next) => {
    const httpError = reportError(err, req.path, logger);
    res.status(httpError.status).json(errorBody(httpError));
  };
}
