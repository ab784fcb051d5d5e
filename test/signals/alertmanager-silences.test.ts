import { toSilences } from '../../src/signals/alertmanager-client';
import type { HttpAnswer } from '../../src/signals/http-get-json';

const ok = (body: unknown, status = 200): HttpAnswer => ({ ok: true, status, body });
/** A silence as Alertmanager API v2 lists it (GettableSilence). */
const silence = {
  id: '5d2c8b1e-0c1a-4f4e-9a55-1f0e7c3b2a10',
  status: { state: 'active' },
  updatedAt: '2026-01-05T09:55:00.123Z',
  matchers: [{ name: 'severity', value: 'critical', isRegex: false, isEqual: true }],
  startsAt: '2026-01-05T09:55:00.123Z',
  endsAt: '2026-01-05T11:55:00.000Z',
  createdBy: 'a step',
  comment: 'muted by the experiment',
};

describe('the silences of an Alertmanager answer', () => {
  test('each silence by id with its times, nothing else', () => {
    expect(toSilences(ok([silence]))).toEqual({
      silences: {
        [silence.id]: { startsAt: silence.startsAt, updatedAt: silence.updatedAt, endsAt: silence.endsAt },
      },
    });
  });

  test.each<[string, HttpAnswer, string]>([
    ['unreachable', { ok: false, timedOut: true, error: 'timed out after 2000 ms' }, 'timed out after 2000 ms'],
    ['an error status', ok({ message: 'no' }, 500), 'HTTP 500: {"message":"no"}'],
    ['not a list', ok({ silences: [] }), 'the answer is not a list of silences'],
    ['a silence without a start', ok([{ id: 'x' }]), 'the answer lists a silence without an id or a start time'],
    ['a start that is not a time', ok([{ id: 'x', startsAt: 'soon' }]), 'without an id or a start time'],
  ])('%s is an error, so no silence hides an alert', (_name, http, error) => {
    expect(toSilences(http)).toEqual({ silencesError: expect.stringContaining(error) });
  });

  test('an id such as __proto__ is kept as data', () => {
    const read = toSilences(ok([{ ...silence, id: '__proto__' }]));
    expect('silences' in read && Object.hasOwn(read.silences, '__proto__')).toBe(true);
  });
});
