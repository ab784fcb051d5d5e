import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { ROOT } from '../helpers/server-process';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README as one line: sentences wrap anywhere. */
const prose = README.replace(/\s+/g, ' ');
const NUMBERS = ['no', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten', 'eleven', 'twelve'];

describe('numbers and names the README states are derived from the repository, not copied once', () => {
  test('every policy revision the README shows is the revision of the bundled policies', () => {
    const loaded = loadPolicyDir(join(ROOT, 'policies'));
    if (!loaded.ok) throw new Error('policies/ does not load');
    const { revision } = loaded.bundle;
    const whole = [...README.matchAll(/"revision": ?"([0-9a-f]+)"/g)].map((m) => m[1]);
    const shortened = [...README.matchAll(/policy revision ([0-9a-f]+)…/g)].map((m) => m[1]);
    expect(whole.length + shortened.length).toBeGreaterThan(0);
    expect(whole.filter((r) => r !== revision)).toEqual([]);
    expect(shortened.filter((r) => !revision.startsWith(r))).toEqual([]);
  });

  test("the number of alerts the chart ships is the number in the chart's PrometheusRule, each named", () => {
    const rule = readFileSync(join(ROOT, 'charts', 'preflight-gate', 'templates', 'prometheusrule.yaml'), 'utf8');
    const alerts = [...rule.matchAll(/^\s*- alert: (\w+)/gm)].map((m) => m[1]);
    const said = /The chart ships (\w+) alerts \(([^)]*)\)/.exec(prose);
    expect(said).not.toBeNull();
    const [, count, named] = said as RegExpExecArray;
    expect(NUMBERS.indexOf(count)).toBe(alerts.length);
    expect(named.split(/, (?:and )?| and /)).toHaveLength(alerts.length);
  });
});
