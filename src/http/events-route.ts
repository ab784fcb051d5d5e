import { Router, type Request, type RequestHandler, type Response } from 'express';
import { describeFieldErrors, validatePayload } from '../payload/validate-payload';
import type { Logger } from '../common/logger';
import type { EventOutcome } from '../answer/event-outcome';
import { eventsRecorder } from './events-recorder';
import type { PublishAnswer } from '../answer/publish-answer';
import type { GuardrailState } from '../state/guardrail-state';
import type { StateEvent } from '../state/state-event';
import { readStateEvent } from '../state/state-event';
import { outsideTolerance } from '../state/event-tolerance';
import { applyStateEvent } from '../state/apply-state-event';
import type { ApplyOutcome } from '../state/state-store';
import { eventNotRecordedError } from './error-handler';
import { HttpError } from './http-error';
import { signedJsonBody, type SignedBodyOptions } from './signed-json-body';

export interface EventsDeps extends SignedBodyOptions {
  logger: Logger;
  clock: () => Date;
  state: GuardrailState;
  /** Hands each answer's record to its subscribers (metrics count it). */
  publish: PublishAnswer;
}

export const EVENTS_NEED_SECRET =
  'POST /events needs WEBHOOK_SECRET: unsigned events could disengage the emergency stop or end running executions. Set WEBHOOK_SECRET here and the same secret on the Steadybit custom webhook';

function describe(event: StateEvent): string {
  if (event.kind === 'killswitch' && event.engaged)
    return `emergency stop engaged by ${event.by} at ${event.changedAt.text}`;
  if (event.kind === 'killswitch')
    return `emergency stop disengaged by ${event.by} at ${event.changedAt.text}${event.endsEngagementAt ? '' : ', naming no engagement'}`;
  const what = event.phase === 'started' ? 'is running' : `ended ${event.endState}`;
  return `execution ${event.id} ${what} (${event.scopes.join(', ') || 'no team or environment'})`;
}

const IGNORED: Record<Exclude<ApplyOutcome, 'applied'>, string> = {
  duplicate: 'ignored: a repeated delivery of an event already received',
  stale: 'ignored: the state it would change is newer (the event is replayed or arrived out of order)',
  unmatched:
    'ignored: a disengagement must name the engagement it ends (killswitch.engaged, the time of the engagement in force, not after the disengagement); this one does not, so the emergency stop stays as it is',
};

/**
 * POST /events: Steadybit's custom webhooks (experiment.execution.*, killswitch.*), signed like
 * /preflight. Applied events answer 202, ignored ones 200 (duplicates, replays, out-of-order, too
 * old, untracked), always with a `message`. 503 while the state store is unreachable, so
 * Steadybit's delivery fails visibly.
 */
export function eventsRouter(deps: EventsDeps): Router {
  const router = Router();
  // Unsigned events could disengage the emergency stop or end running executions: without a
  // secret, /events refuses everything (the preflight still works, with its loud warning).
  const requireSecret: RequestHandler = (_req, _res, next) => {
    next(deps.secrets.current().secrets.length > 0 ? undefined : new HttpError(401, EVENTS_NEED_SECRET));
  };
  router.post(
    '/events',
    eventsRecorder(deps),
    requireSecret,
    signedJsonBody(deps),
    async (_req: Request, res: Response) => {
      // The answer's record says what the event did, or (for errors) its status.
      const answered = (outcome: EventOutcome) => {
        res.locals.eventOutcome = outcome;
      };
      const checked = validatePayload(res.locals.body);
      if (!checked.ok)
        throw new HttpError(400, `invalid webhook payload: ${describeFieldErrors(checked.errors)}`, {
          errors: checked.errors,
        });
      const reading = readStateEvent(checked.payload);
      if (reading.kind === 'invalid') throw new HttpError(400, reading.message);
      if (reading.kind === 'ignored') {
        answered('ignored');
        res.status(200).json({ message: reading.message });
        return;
      }
      const { event } = reading;
      const now = deps.clock();
      const tooFar = outsideTolerance(event, now, deps.state.eventToleranceMs);
      if (tooFar) {
        deps.logger.warn('event ignored', { event: event.name, time: event.time.text, reason: tooFar });
        answered('outside_tolerance');
        res.status(200).json({ message: tooFar });
        return;
      }
      const applied = await applyStateEvent(deps.state.store, event, now);
      if (applied.kind === 'unavailable') throw eventNotRecordedError(applied);
      const { outcome } = applied;
      const summary = describe(event);
      if (outcome === 'unmatched')
        deps.logger.warn('event ignored', {
          event: event.name,
          time: event.time.text,
          outcome,
          summary,
          reason: IGNORED.unmatched,
        });
      else deps.logger.info('event', { event: event.name, time: event.time.text, outcome, summary });
      answered(outcome === 'applied' ? 'recorded' : outcome);
      if (outcome === 'applied') res.status(202).json({ message: `recorded: ${summary}` });
      else res.status(200).json({ message: `${IGNORED[outcome]} (${summary})` });
    },
  );
  return router;
}
