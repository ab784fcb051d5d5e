import { parseEventTime } from '../../src/state/event-time';

describe("event times keep Steadybit's nine fractional digits", () => {
  test.each([
    ['nanoseconds apart within one millisecond', '2024-01-01T00:00:00.000000001Z', '2024-01-01T00:00:00.000000000Z'],
    ['six digits against nine', '2024-01-01T00:00:00.000001Z', '2024-01-01T00:00:00.000000999Z'],
    ['no fraction against a fraction', '2024-01-01T00:00:00.5Z', '2024-01-01T00:00:00Z'],
    ['an offset is applied', '2024-01-01T01:00:00.000000001+01:00', '2024-01-01T00:00:00Z'],
    ['whole seconds', '2024-01-01T00:00:01Z', '2024-01-01T00:00:00.999999999Z'],
  ])('%s: the first is later', (_name, later, earlier) => {
    const a = parseEventTime(later);
    const b = parseEventTime(earlier);
    expect(a && b && a.key > b.key).toBe(true);
  });

  test('the same instant written two ways has one key', () => {
    expect(parseEventTime('2024-01-01T00:00:00.000000000Z')?.key).toBe(
      parseEventTime('2024-01-01T01:00:00+01:00')?.key,
    );
    // Both parsed, not both undefined: the key of 2024-01-01T00:00:00Z (seconds, then nine digits).
    expect([
      parseEventTime('2024-01-01T00:00:00.000000000Z')?.key,
      parseEventTime('2024-01-01T01:00:00+01:00')?.key,
    ]).toEqual([`0${Date.UTC(2024, 0, 1) / 1000}000000000`, `0${Date.UTC(2024, 0, 1) / 1000}000000000`]);
  });

  test('milliseconds for windows, nanoseconds for order', () => {
    expect(parseEventTime('2024-01-01T00:00:00.123456789Z')).toEqual({
      text: '2024-01-01T00:00:00.123456789Z',
      ms: Date.UTC(2024, 0, 1) + 123,
      key: `0${Date.UTC(2024, 0, 1) / 1000}123456789`,
    });
  });

  test.each(['yesterday', '2024-01-01', '2024-13-01T00:00:00Z', '1969-12-31T23:59:59Z', '2024-01-01T00:00:00'])(
    'rejects %s',
    (text) => {
      expect(parseEventTime(text)).toBeUndefined();
    },
  );
});
