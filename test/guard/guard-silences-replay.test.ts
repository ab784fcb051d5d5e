import type { ArchiveRecord } from '../../src/archive/archive-record';
import { redecide, replayBundle } from '../../src/replay/redecide';
import type { SignalFacts } from '../../src/policy/facts/signal-facts';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';
import { archiveInMemory, checkedRecord, guardUnderTest, TestClock } from './guard-harness';

const GUARDED = `kind: Policy
name: critical-alerts
whileRunning: true
rules:
  - alerts: { matchers: ['severity="critical"'] }
`;
const NOW = '2026-01-05T10:00:00.000Z';
const CREATED = '2026-01-05T09:45:00.000Z';
/** Alertmanager's answer: a critical alert silenced by a silence made at 09:55, ten minutes into the run. */
const signals = (silenceStartsAt: string): SignalFacts => ({
  alertmanager: {
    default: {
      readAt: NOW,
      alerts: [
        {
          labels: { alertname: 'CheckoutDown', severity: 'critical' },
          startsAt: '2026-01-05T09:50:00.000Z',
          status: { state: 'suppressed', silencedBy: ['s-1'], inhibitedBy: [] },
        },
      ],
      silences: { 's-1': { startsAt: silenceStartsAt, updatedAt: silenceStartsAt } },
    },
  },
});
const tick = () => new Promise((resolve) => setImmediate(resolve));

test('a stop for an alert silenced mid-run is archived with the silences it read, and replay judges them again', async () => {
  const { archive, lines } = archiveInMemory();
  const bundle = bundleFrom({ 'p.yaml': GUARDED });
  const g = guardUnderTest(bundle, new TestClock(new Date(NOW)), {
    archive,
    cancel: async () => ({ ok: true, outcome: 'accepted' }),
    gather: async () => ({ ok: true, facts: { signals: signals('2026-01-05T09:55:00.000Z') } }),
  });
  g.allow(
    preflightWith((p) => {
      p.execution.id = 95;
      p.execution.created = CREATED;
    }),
  );
  await g.guard.tick();
  await tick();
  await archive.close();
  expect(g.stops.map((s) => s.executionId)).toEqual(['95']);
  expect(lines).toHaveLength(1);
  const record = checkedRecord(lines[0]);
  expect(record.facts.signals?.alertmanager?.default).toMatchObject({
    silences: { 's-1': { startsAt: '2026-01-05T09:55:00.000Z' } },
  });

  // Replayed from the record alone: stopped again. The same record with the silence made before the run: not.
  expect(redecide(replayBundle(bundle), record)).toMatchObject({ kind: 'decided', answer: { status: 403 } });
  const before: ArchiveRecord = {
    ...record,
    facts: { ...record.facts, signals: signals('2026-01-05T09:30:00.000Z') },
  };
  expect(redecide(replayBundle(bundle), before)).toMatchObject({ kind: 'decided', answer: { status: 200 } });

  // A record from before the silences were read: not replayed as a change the policies did not make.
  const answer = signals(NOW).alertmanager?.default;
  if (answer === undefined || !('alerts' in answer)) throw new Error('the fixture lists alerts');
  const { silences: _dropped, ...unread } = answer;
  const older: ArchiveRecord = {
    ...record,
    facts: { ...record.facts, signals: { alertmanager: { default: unread } } },
  };
  expect(redecide(replayBundle(bundle), older)).toEqual({
    kind: 'not-replayable',
    reason:
      'the archive lists silenced alerts of alertmanager "default" without the silences\' times (recorded before the gate read them), so whether a silence began after the run started cannot be told',
  });
});
