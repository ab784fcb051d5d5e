import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { builtInPolicies, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { ROOT } from '../helpers/server-process';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** The HTTP contract, /readyz's example with it, moved from the README to docs/http-api.md. */
const HTTP_API = readFileSync(join(ROOT, 'docs', 'http-api.md'), 'utf8');
/** The alerts the chart ships: the "Alerts" section of docs/metrics.md (the README links to it). */
const METRICS = readFileSync(join(ROOT, 'docs', 'metrics.md'), 'utf8');
const ALERTS = METRICS.slice(
  METRICS.indexOf('\n## Alerts\n'),
  METRICS.indexOf('\n## ', METRICS.indexOf('\n## Alerts\n') + 1),
);
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

describe('numbers and names the README and the docs it leads to state are derived from the repository, not copied once', () => {
  test('every policy revision the README and docs/http-api.md show is the revision of the bundled policies', () => {
    const loaded = loadPolicyDir(join(ROOT, 'policies'));
    if (!loaded.ok) throw new Error('policies/ does not load');
    const { revision } = loaded.bundle;
    const both = `${README}\n${HTTP_API}`;
    const whole = [...both.matchAll(/"revision": ?"([0-9a-f]+)"/g)].map((m) => m[1]);
    const shortened = [...both.matchAll(/policy revision ([0-9a-f]+)…/g)].map((m) => m[1]);
    expect(whole.length).toBeGreaterThan(0);
    expect(shortened.length).toBeGreaterThan(0);
    expect(whole.filter((r) => r !== revision)).toEqual([]);
    expect(shortened.filter((r) => !revision.startsWith(r))).toEqual([]);
  });

  test("the policy count of the /readyz example (docs/http-api.md) is the one the README's printed decisions show, built-in emergency stop counted in both", () => {
    const loaded = loadPolicyDir(join(ROOT, 'policies'));
    if (!loaded.ok) throw new Error('policies/ does not load');
    const served = withBuiltIns(loaded.bundle, builtInPolicies('enforce'));
    const readyz = [
      ...HTTP_API.matchAll(/"policies": (\d+), "builtInPolicies": \["emergency-stop \(built-in\)"\]/g),
    ].map((m) => Number(m[1]));
    // The output the README prints (test/readme/readme-example.int.test.ts compares it with a started service).
    const printed = [...README.matchAll(/\{"message":"Allowed: \d+ of (\d+) polic(?:y|ies) applied/g)].map((m) =>
      Number(m[1]),
    );
    expect(readyz).toEqual([served.policies.length]);
    expect(printed.length).toBeGreaterThan(0);
    expect(printed.filter((n) => n !== served.policies.length)).toEqual([]);
    expect(served.policies.length).toBe(loaded.bundle.policies.length + 1);
  });

  test("the number of alerts the chart ships (docs/metrics.md) is the number in the chart's PrometheusRule, each in its table", () => {
    const rule = readFileSync(join(ROOT, 'helm', 'templates', 'prometheusrule.yaml'), 'utf8');
    const alerts = [...rule.matchAll(/^\s*- alert: (\w+)/gm)].map((m) => m[1]);
    // As one line: sentences wrap anywhere.
    const said = /The chart's `PrometheusRule` \([^)]*\) holds (\w+) alerts/.exec(ALERTS.replace(/\s+/g, ' '));
    expect(said).not.toBeNull();
    const [, count] = said as RegExpExecArray;
    expect(NUMBERS.indexOf(count)).toBe(alerts.length);
    const rows = [...ALERTS.matchAll(/\| `(\w+)`(?: \(severity `\w+`\))? \|/g)].map((m) => m[1]);
    expect(rows.sort()).toEqual([...alerts].sort());
  });
});
