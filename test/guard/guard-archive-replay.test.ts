import { redecide, replayBundle } from '../../src/replay/redecide';
import { createLogger } from '../../src/common/logger';
import { forgetEndedRuns } from '../../src/guard/forget-ended-runs';
import { MemoryGuardStore } from '../../src/guard/memory-guard-store';
import { MemoryStateStore } from '../../src/state/memory-state-store';
import { readStateEvent } from '../../src/state/state-event';
import type { WebhookPayload } from '../../src/payload/types';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { archiveInMemory, checkedRecord, guardUnderTest, TestClock } from './guard-harness';

const GUARDED = `kind: Policy
name: business-hours
whileRunning: true
rules:
  - timeWindow: { timeZone: Europe/Berlin, allowed: [{ days: [Mon-Fri], from: "09:00", to: "17:00" }] }
`;
const AFTER_CLOSE = '2026-01-05T16:00:30Z';
const tick = () => new Promise((resolve) => setImmediate(resolve));

test("a stop is archived with whileRunning, and replay judges it on a proposed set's guarded part", async () => {
  const { archive, lines } = archiveInMemory();
  const bundle = bundleFrom({ 'p.yaml': GUARDED });
  const clock = new TestClock(new Date(AFTER_CLOSE));
  const g = guardUnderTest(bundle, clock, { archive, cancel: async () => ({ ok: true, outcome: 'accepted' }) });
  g.allow(
    preflightWith((p) => {
      p.execution.id = 91;
    }),
  );
  await g.guard.tick();
  await tick();
  await archive.close();
  expect(lines).toHaveLength(1);
  const record = checkedRecord(lines[0]);
  expect(record).toMatchObject({ whileRunning: true, answer: { status: 403 } });

  // The same set stops it again; a set whose policy no longer guards runs would not have stopped it.
  expect(redecide(replayBundle(bundle), record)).toMatchObject({ kind: 'decided', answer: { status: 403 } });
  const unguarded = bundleFrom({ 'p.yaml': GUARDED.replace('whileRunning: true\n', '') });
  expect(redecide(replayBundle(unguarded), record)).toMatchObject({ kind: 'decided', answer: { status: 200 } });
});

test('a run whose end event arrives (POST /events or the Platform API sync) is forgotten: never judged or cancelled again', async () => {
  const runs = new MemoryGuardStore();
  const state = forgetEndedRuns(
    new MemoryStateStore({ executionTtlMs: 3600_000, eventToleranceMs: 900_000 }),
    runs,
    createLogger('error', { silent: true }),
  );
  const now = new Date();
  await runs.keep(
    {
      executionId: '92',
      decisionId: 'd',
      allowedAt: now.toISOString(),
      revision: 'r',
      payload: preflightWith((p) => {
        p.execution.id = 92;
      }),
    },
    now.getTime() + 60_000,
    now.getTime(),
  );
  const ended = readStateEvent({
    event: 'experiment.execution.completed',
    time: now.toISOString(),
    execution: { id: 92, state: 'COMPLETED', experimentKey: 'ADM-1', teamKey: 'ADM', environment: 'Global' },
  } as WebhookPayload);
  if (ended.kind !== 'event') throw new Error(`not an event: ${ended.message}`);
  await state.apply(ended.event, now);
  expect(await runs.has('92', now.getTime())).toBe(false);
});
