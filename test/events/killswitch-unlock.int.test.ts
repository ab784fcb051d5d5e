import type { WebhookPayload } from '../../src/payload/types';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { guardrailApp } from '../state/guardrail-app';
import { at, disengagedPayload, engagedPayload, T0 } from '../state/state-events';
import { TIMING } from '../state/store-table';

const YEAR_AHEAD = T0 + 365 * 86_400_000;
const stopped = (message: string) => message.includes('the emergency stop is engaged');

/** Issue 19.5: the emergency stop cannot be unlocked by a malformed or far-future event. */
describe('the emergency stop cannot be unlocked by a malformed or far-future event', () => {
  test.each<[string, WebhookPayload, string]>([
    [
      'a disengagement whose killswitch.disengaged lies a year ahead (time is now)',
      disengagedPayload(at(YEAR_AHEAD), at(T0 - 60_000), at(T0)),
      'ignored: killswitch.disengaged 2027-01-05T10:00:00.000000000Z is further in the future than the tolerance of 900 s (EVENT_TOLERANCE_SECONDS)',
    ],
    [
      'a disengagement that names no engagement (killswitch: {})',
      { event: 'killswitch.disengaged', time: at(T0), killswitch: {} },
      'ignored: a disengagement must name the engagement it ends',
    ],
    [
      'a disengagement that names another engagement',
      disengagedPayload(at(T0), at(T0 - 30_000)),
      'ignored: a disengagement must name the engagement it ends',
    ],
  ])(
    '%s is ignored with a message; the stop stays engaged and later changes still apply',
    async (_name, body, message) => {
      const gate = guardrailApp(new MemoryStateStore(TIMING));
      expect((await gate.event(engagedPayload(at(T0 - 60_000), 'jane'))).status).toBe(202);
      const res = await gate.event(body);
      expect([res.status, res.body.message]).toEqual([200, expect.stringContaining(message)]);
      expect(stopped((await gate.preflight(1)).body.message)).toBe(true);
      // The far-future time was not recorded: a genuine disengagement now, then an engagement, both apply.
      expect((await gate.event(disengagedPayload(at(T0 + 1000), at(T0 - 60_000)))).status).toBe(202);
      expect((await gate.preflight(2)).status).toBe(200);
      expect((await gate.event(engagedPayload(at(T0 + 2000), 'ann'))).status).toBe(202);
      expect(stopped((await gate.preflight(3)).body.message)).toBe(true);
    },
  );
});
