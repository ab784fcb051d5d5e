import type { RequestHandler, Response } from 'express';
import { STEADYBIT_EVENTS, type EventLabel, type EventOutcome, type Metrics } from './metrics';

const KNOWN_EVENTS: ReadonlySet<string> = new Set(STEADYBIT_EVENTS);

/** The payload's event name when it is one of Steadybit's, else `other` (also for an unsigned or unparsed body). */
function eventLabel(body: unknown): EventLabel {
  const name = typeof body === 'object' && body !== null && 'event' in body ? body.event : undefined;
  return typeof name === 'string' && KNOWN_EVENTS.has(name) ? (name as EventLabel) : 'other';
}

/** An answer the route did not classify: an error raised on the way (signature, body, payload, store). */
function outcomeOfStatus(res: Response): EventOutcome {
  if (!res.writableFinished) return 'error'; // the client went away before the answer
  if (res.statusCode === 401) return 'unauthorized';
  if (res.statusCode === 503) return 'unavailable';
  if (res.statusCode >= 400 && res.statusCode < 500) return 'invalid';
  return 'error';
}

/**
 * The first handler of POST /events. Once the answer is out it counts it exactly once in
 * preflight_events_total{event, outcome}. The route leaves what the event did in
 * `res.locals.eventOutcome`; errors are classified by their status.
 */
export function observeEvents(metrics: Metrics): RequestHandler {
  return (_req, res, next) => {
    res.once('close', () => {
      const classified = res.locals.eventOutcome as EventOutcome | undefined;
      // The body is only parsed after its signature was verified: an unsigned body never names the event.
      metrics.events.inc({ event: eventLabel(res.locals.body), outcome: classified ?? outcomeOfStatus(res) });
    });
    next();
  };
}
