import { formatDuration, parseDuration } from '../../../src/syntax/duration';
import { humanDuration } from '../../../src/syntax/human-duration';

describe('durations', () => {
  test.each([
    ['500ms', 500],
    ['30s', 30_000],
    ['5m', 300_000],
    ['1h', 3_600_000],
    ['1h30m', 5_400_000],
    ['2d', 172_800_000],
    ['1.5h', 5_400_000],
    ['1m30s', 90_000],
    [' 10s ', 10_000],
    ['300000', 300_000],
    [300000, 300_000],
    [0, 0],
    ['0s', 0],
    ['1w', 604_800_000],
    ['1w2d', 777_600_000],
  ])('%p is %p ms', (text, ms) => {
    expect(parseDuration(text)).toBe(ms);
  });

  test.each([
    ['5 minutes'],
    ['5M'],
    ['1d1w'],
    ['30m1h'],
    ['1h1h'],
    ['-5s'],
    [''],
    ['s'],
    [-1],
    [Number.NaN],
    [true],
    [null],
    [['5m']],
  ])('%p is not a duration', (text) => {
    expect(parseDuration(text)).toBeUndefined();
  });

  test.each([
    [0, '0ms'],
    [500, '500ms'],
    [90_000, '1m30s'],
    [5_400_000, '1h30m'],
    [86_400_001, '1d1ms'],
    [691_200_000, '1w1d'],
  ])('%p ms reads %p', (ms, text) => {
    expect(formatDuration(ms)).toBe(text);
  });
});

describe('humanDuration: a duration as a person reads it, in its two largest units', () => {
  test.each<[number, 'nearest' | 'down', string]>([
    [77_343_843, 'nearest', '21h29m'], // 21h29m3s843ms
    [77_370_000, 'nearest', '21h30m'], // 21h29m30s rounds up
    [77_370_000, 'down', '21h29m'],
    [604_800_000, 'nearest', '7 days'], // 1w
    [86_400_000, 'nearest', '1 day'],
    [100_800_000, 'nearest', '1 day 4h'],
    [86_400_001, 'nearest', '1 day'],
    [7_200_000, 'nearest', '2h'],
    [90_000, 'nearest', '1m30s'],
    [3_599_700, 'nearest', '1h'], // 59m59.7s rounds into the next unit
    [3_843, 'nearest', '4s'], // below a minute: whole seconds, no milliseconds
    [52_708, 'nearest', '53s'],
    [52_708, 'down', '52s'],
    [59_700, 'nearest', '1m'],
    [999, 'nearest', '999ms'], // below a second milliseconds are all there is
    [500, 'nearest', '500ms'],
    [0, 'nearest', '0ms'],
  ])('%p ms (%s) reads %p', (ms, rounding, text) => {
    expect(humanDuration(ms, rounding)).toBe(text);
  });
});
