import type { RequestHandler, Response } from 'express';
import { STEADYBIT_EVENTS, type EventLabel, type EventOutcome } from '../answer/event-outcome';
import { CLIENT_CLOSED } from '../observability/observe-answers';
import { type EventRecord, freezeRecord } from '../answer/answer-record';
import type { PublishAnswer } from '../answer/publish-answer';

const KNOWN_EVENTS: ReadonlySet<string> = new Set(STEADYBIT_EVENTS);

/** The payload's event name when it is one of Steadybit's, else `other` (also for an unsigned or unparsed body). */
function eventLabel(body: unknown): EventLabel {
  const name = typeof body === 'object' && body !== null && 'event' in body ? body.event : undefined;
  return typeof name === 'string' && KNOWN_EVENTS.has(name) ? (name as EventLabel) : 'other';
}

/** What an error answer to POST /events says of the event: by its status. */
function outcomeOf(status: number): EventOutcome {
  if (status === 401) return 'unauthorized';
  if (status === 503) return 'unavailable';
  if (status >= 400 && status < 500) return 'invalid';
  return 'error';
}

/** An answer the route did not classify: an error raised on the way (signature, body, payload, store). */
function outcomeOfStatus(res: Response): EventOutcome {
  if (!res.writableFinished) return 'error'; // the client went away before the answer
  return outcomeOf(res.statusCode);
}

/** The record of a POST /events refused for its framing before any route ran (a body over BODY_LIMIT, 413). */
export function refusedEvent(status: number, answeredAt: Date): EventRecord {
  return freezeRecord({
    route: '/events',
    status,
    event: 'other',
    outcome: outcomeOf(status),
    timings: { answeredAt, durationMs: 0 },
  });
}

/**
 * The first handler of POST /events. Once the answer is out it publishes the answer's one record
 * (counted in preflight_events_total{event, outcome} by observe-answers.ts). The route leaves
 * what the event did in `res.locals.eventOutcome`; errors are classified by their status.
 */
export function eventsRecorder(deps: { publish: PublishAnswer; clock: () => Date }): RequestHandler {
  return (_req, res, next) => {
    const started = process.hrtime.bigint();
    res.once('close', () => {
      const classified = res.locals.eventOutcome as EventOutcome | undefined;
      deps.publish(
        freezeRecord({
          route: '/events',
          status: res.writableFinished ? res.statusCode : CLIENT_CLOSED,
          // The body is only parsed after its signature was verified: an unsigned body never names the event.
          event: eventLabel(res.locals.body),
          outcome: classified ?? outcomeOfStatus(res),
          timings: { answeredAt: deps.clock(), durationMs: Number(process.hrtime.bigint() - started) / 1e6 },
        }),
      );
    });
    next();
  };
}
