import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInPolicies, withBuiltIns } from '../../src/policy/loading/built-in-policies';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { ROOT } from '../helpers/server-process';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The README as one line: sentences wrap anywhere. */
const prose = README.replace(/\s+/g, ' ');
const NUMBERS = [
  'no',
  'one',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
];

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

  test('the policy count of the /readyz example is the one the printed decisions show, built-in emergency stop counted in both', () => {
    const loaded = loadPolicyDir(join(ROOT, 'policies'));
    if (!loaded.ok) throw new Error('policies/ does not load');
    const served = withBuiltIns(loaded.bundle, builtInPolicies('enforce'));
    const readyz = [...README.matchAll(/"policies": (\d+), "builtInPolicies": \["emergency-stop \(built-in\)"\]/g)].map(
      (m) => Number(m[1]),
    );
    // The output the README prints (test/readme/readme-example.int.test.ts compares it with a started service).
    const printed = [...README.matchAll(/\{"message":"Allowed: \d+ of (\d+) polic(?:y|ies) applied/g)].map((m) =>
      Number(m[1]),
    );
    expect(readyz).toEqual([served.policies.length]);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((n) => n !== served.policies.length)).toEqual([]);
    expect(served.policies.length).toBe(loaded.bundle.policies.length + 1);
  });

  test("the number of alerts the chart ships is the number in the chart's PrometheusRule, each named", () => {
    const rule = readFileSync(join(ROOT, 'helm', 'templates', 'prometheusrule.yaml'), 'utf8');
    const alerts = [...rule.matchAll(/^\s*- alert: (\w+)/gm)].map((m) => m[1]);
    const said = /The chart ships (\w+) alerts \(([^)]*)\)/.exec(prose);
    expect(said).not.toBeNull();
    const [, count, named] = said as RegExpExecArray;
    expect(NUMBERS.indexOf(count)).toBe(alerts.length);
    expect(named.split(/, (?:and )?| and /)).toHaveLength(alerts.length);
  });
});
