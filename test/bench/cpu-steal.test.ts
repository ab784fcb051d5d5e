import { parseCpuTimes, readCpuTimes, stealPercent } from '../../bench/cpu-steal';

// A real /proc/stat head from the benchmark machine (2 vCPUs).
const BEFORE =
  'cpu  576128 0 77162 6929855 15435 0 16071 15533 0 0\ncpu0 288064 0 38581 3464927 7717 0 8035 7766 0 0\nintr 1 2 3\n';
const AFTER = 'cpu  577756 0 77362 6931203 15708 0 16188 15727 0 0\ncpu0 288878 0 38681 3465601 7854 0 8094 7863 0 0\n';

describe('steal time from /proc/stat', () => {
  test('the aggregate line is read, not a per-CPU line; guest time is not counted twice', () => {
    expect(parseCpuTimes(BEFORE)).toEqual({ total: 576128 + 77162 + 6929855 + 15435 + 16071 + 15533, steal: 15533 });
    expect(parseCpuTimes('cpu  1 2 3 4 5 6 7 8 900 900\n')).toEqual({ total: 36, steal: 8 });
  });

  test('steal is the share of all CPU time between two readings', () => {
    const percent = stealPercent(parseCpuTimes(BEFORE), parseCpuTimes(AFTER));
    // 194 ticks of steal out of 1628 + 200 + 1348 + 273 + 117 + 194 = 3760.
    expect(percent).toBeCloseTo((100 * 194) / 3760, 6);
  });

  test('unknown when a reading is missing, malformed, or no time passed', () => {
    expect(parseCpuTimes('intr 1 2 3\n')).toBeUndefined();
    expect(parseCpuTimes('cpu  1 2 x 4 5 6 7 8\n')).toBeUndefined();
    expect(parseCpuTimes('cpu  1 2 3\n')).toBeUndefined();
    expect(stealPercent(undefined, parseCpuTimes(AFTER))).toBeUndefined();
    expect(stealPercent(parseCpuTimes(AFTER), parseCpuTimes(AFTER))).toBeUndefined();
  });

  test('this machine has a readable /proc/stat (Linux, where CI runs)', () => {
    const now = readCpuTimes();
    expect(now).toBeDefined();
    expect(now!.steal).toBeLessThanOrEqual(now!.total);
  });
});
