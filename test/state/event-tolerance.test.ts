import type { WebhookPayload } from '../../src/payload/types';
import { outsideTolerance } from '../../src/state/event-tolerance';
import { at, disengagedPayload, engagedPayload, executionPayload, stateEvent, T0 } from './state-events';

const TOLERANCE = 900_000;
const FAR = T0 + 365 * 86_400_000;
const now = new Date(T0);

describe('every time that orders the state is bounded by EVENT_TOLERANCE_SECONDS', () => {
  test.each<[string, WebhookPayload, string | undefined]>([
    ['an execution event fired now', executionPayload('created', 1), undefined],
    [
      'an execution event fired before the tolerance',
      executionPayload('created', 1, { time: at(T0 - TOLERANCE - 1) }),
      'ignored: event time 2026-01-05T09:44:59.999000000Z is older than the tolerance of 900 s',
    ],
    [
      'a disengagement whose killswitch.disengaged lies a year ahead',
      disengagedPayload(at(FAR), at(T0 - 1000), at(T0)),
      'ignored: killswitch.disengaged 2027-01-05T10:00:00.000000000Z is further in the future than the tolerance',
    ],
    [
      'an engagement whose killswitch.engaged lies a year ahead',
      engagedPayload(at(FAR), 'jane', at(T0)),
      'ignored: killswitch.engaged 2027-01-05T10:00:00.000000000Z is further in the future',
    ],
    [
      'an engagement whose killswitch.engaged lies a day back',
      engagedPayload(at(T0 - 86_400_000), 'jane', at(T0)),
      'ignored: killswitch.engaged 2026-01-04T10:00:00.000000000Z is older than the tolerance',
    ],
    [
      'a disengagement naming an engagement a year ahead',
      disengagedPayload(at(T0), at(FAR)),
      'ignored: killswitch.engaged 2027-01-05T10:00:00.000000000Z is further in the future',
    ],
    [
      'a disengagement of an engagement made a day before (a long stop)',
      disengagedPayload(at(T0), at(T0 - 86_400_000)),
      undefined,
    ],
    [
      'times at the tolerance, both ways',
      disengagedPayload(at(T0 + TOLERANCE), at(T0 - TOLERANCE), at(T0 - TOLERANCE)),
      undefined,
    ],
  ])('%s', (_name, payload, message) => {
    const answer = outsideTolerance(stateEvent(payload), now, TOLERANCE);
    if (message === undefined) expect(answer).toBeUndefined();
    else expect(answer).toContain(message);
  });
});
