import { formatDuration, parseDuration } from '../../../src/validation/syntax/duration';

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
