import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { CLI } from './run-cli';

/**
 * The bundled policies and examples must not rot: `validate --strict` (CI, the Action) and their
 * suites pass on any date, not only on the day they were written. The CLI runs under Debian's
 * faketime (libfaketime), which moves the clock of the whole process from outside, so nothing in
 * the code under test can pin it: a year and three years ahead of the day the test runs.
 */
const DIRS = [
  'policies',
  'examples/attacked-services',
  'examples/dead-man',
  'examples/guard',
  'examples/run-safety',
  'examples/signals',
  'examples/target-owners',
];
const AHEAD = [
  ['a year', '+365d', 365],
  ['three years', '+1096d', 1096],
] as const;

function underFaketime(offset: string, args: string[]) {
  const res = spawnSync('faketime', ['-f', offset, ...args], {
    cwd: ROOT,
    env: { PATH: process.env.PATH },
    encoding: 'utf8',
    timeout: 60_000,
  });
  if (res.error) throw res.error;
  return { code: res.status, out: `${res.stdout}${res.stderr}` };
}

describe.each(AHEAD)('%s ahead of today (faketime %s)', (_name, offset, days) => {
  test('faketime moves the clock node reads', () => {
    const res = underFaketime(offset, [process.execPath, '-e', 'process.stdout.write(String(Date.now()))']);
    const ahead = (Number(res.out) - Date.now()) / 86_400_000;
    expect(ahead).toBeGreaterThan(days - 1);
    expect(ahead).toBeLessThan(days + 1);
  });

  test.each(DIRS)('validate --strict %s passes', (dir) => {
    const res = underFaketime(offset, [process.execPath, CLI, 'validate', '--strict', join(ROOT, dir)]);
    expect([res.code, res.out]).toEqual([0, expect.stringMatching(/: valid \(0 errors, 0 warnings\)/)]);
  });

  test.each(DIRS)('the suites of %s pass with --strict', (dir) => {
    const res = underFaketime(offset, [process.execPath, CLI, 'test', '--strict', join(ROOT, dir)]);
    expect([res.code, res.out]).toEqual([0, expect.stringMatching(/^OK: /m)]);
  });
});
