import fc from 'fast-check';
import { stringify } from 'yaml';
import { evaluate } from '../../src/policy/evaluate';
import type { PreflightPayload } from '../../src/policy/types';
import { bundleFrom } from '../helpers/test-app';
import { preflightWith } from '../helpers/fixtures';

// Small vocabularies, with case variants and alias ids, so random scopes and runs often meet.
const TEAMS = ['ADM', 'adm', 'SHOP', 'Pay', 'OPS'];
const ENVS = ['production', 'Staging', 'dev', 'payments-prod', 'aaaaaaaa-0000-4000-8000-000000000001', 'bbbbbbbb-0000-4000-8000-000000000002'];
const KEY_GLOBS = ['ADM-1', 'ADM-*', 'shop-*', 'SHOP-1?', '*-1', './ADM-*', '{ADM,SHOP}-2', 'pay-[0-9]', 'ADM-1*', 'ops_*'];
const RUN_KEYS = ['ADM-1', 'adm-12', 'SHOP-2', 'SHOP-13', './ADM-1', 'PAY-3', 'ſhop-1', 'OPS-1', 'ops_7'];
const ALIASES = 'kind: EnvironmentAliases\naliases:\n  production: [aaaaaaaa-0000-4000-8000-000000000001]\n  payments-prod: [bbbbbbbb-0000-4000-8000-000000000002]\n';
const NOW = new Date('2026-01-05T10:00:00Z');

const some = <T>(xs: T[]) => fc.subarray(xs, { minLength: 1, maxLength: Math.min(3, xs.length) });
const scope = fc.record({
  teams: some(TEAMS), environments: some(ENVS), experimentKeys: some(KEY_GLOBS),
  createdVia: some(['UI', 'API', 'SCHEDULE']), actionKinds: some(['ATTACK', 'CHECK']),
}, { requiredKeys: [] });

const policyDoc = (i: number) => fc.record({
  match: fc.option(scope, { nil: undefined }),
  exclude: fc.option(scope, { nil: undefined }),
  mode: fc.constantFrom('enforce', 'warn', 'audit'),
  priority: fc.integer({ min: 0, max: 3 }),
  rule: fc.oneof(
    fc.record({ blocked: some(ENVS) }),
    fc.record({ allowed: some(ENVS) }),
  ),
  tag: fc.boolean(),
}).map(({ match, exclude, mode, priority, rule, tag }) => ({
  kind: 'Policy', name: `p${i}`, mode, priority, rules: [{ environments: rule }],
  ...(match ? { match } : {}), ...(exclude ? { exclude } : {}),
  ...(tag ? { modifications: [{ type: 'add_value_to_list_property', propertyKey: 'tags', value: `{{policy}}-{{team}}` }] } : {}),
}));

const bundleArb = fc.integer({ min: 1, max: 25 }).chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => policyDoc(i))))
  .chain((policies) => fc.subarray(policies.map((p) => p.name), { maxLength: Math.min(2, policies.length) }).map((waived) => ({ policies, waived })));

const runArb = fc.record({
  teamKey: fc.option(fc.constantFrom(...TEAMS, 'NOBODY'), { nil: undefined }),
  environment: fc.option(fc.constantFrom(...ENVS, 'elsewhere'), { nil: undefined }),
  override: fc.option(fc.constantFrom(...ENVS), { nil: undefined }),
  experimentKey: fc.option(fc.constantFrom(...RUN_KEYS), { nil: undefined }),
  createdVia: fc.option(fc.constantFrom('UI', 'API', 'CLI'), { nil: undefined }),
});

type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

function payloadFor(run: Run): PreflightPayload {
  return preflightWith((p) => {
    for (const key of ['teamKey', 'environment', 'experimentKey', 'createdVia'] as const) {
      if (run[key] === undefined) delete p.execution[key];
      else p.execution[key] = run[key];
    }
    if (run.override) p.execution.overrides = { environment: run.override };
  });
}

describe('policy index: the same decision as a full scan', () => {
  test('for random bundles and runs, the index only leaves out policies the full scan skips for their match scope', () => {
    fc.assert(fc.property(bundleArb, fc.array(runArb, { minLength: 1, maxLength: 8 }), ({ policies, waived }, runs) => {
      const exceptions = waived.map((policy, i) => stringify({
        kind: 'Exception', name: `waiver-${i}`, policy, owner: 'sre', reason: 'drill', expires: '2027-01-01T00:00:00Z', match: { teams: ['ADM'] },
      }));
      const files: Record<string, string> = { 'aliases.yaml': ALIASES };
      policies.forEach((p) => { files[`${p.name}.yaml`] = stringify(p); });
      exceptions.forEach((e, i) => { files[`waiver-${i}.yaml`] = e; });
      const bundle = bundleFrom(files, NOW);
      for (const run of runs) {
        const payload = payloadFor(run);
        const full = evaluate(bundle, payload, { now: NOW, decisionId: 'd', fullScan: true });
        const indexed = evaluate(bundle, payload, { now: NOW, decisionId: 'd' });
        const visited = new Set(indexed.results.map((r) => r.policy));
        const { results: fullResults, outOfScope: _full, ...fullRest } = full;
        const { results: indexedResults, outOfScope, ...indexedRest } = indexed;
        expect(indexedRest).toEqual(fullRest);
        expect(indexedResults).toEqual(fullResults.filter((r) => visited.has(r.policy)));
        for (const left of fullResults.filter((r) => !visited.has(r.policy))) {
          expect(left).toMatchObject({ result: 'skipped', reasons: [expect.stringMatching(/ not in match\.\w+ \(/)] });
        }
        expect(outOfScope).toBe(fullResults.length - indexedResults.length);
      }
    }), { numRuns: 150 });
  });
});
