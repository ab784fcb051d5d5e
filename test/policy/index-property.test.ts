import fc from 'fast-check';
import { stringify } from 'yaml';
import { decide } from '../../src/policy/engine/decide';
import { createContext } from '../../src/policy/engine/create-context';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';

// Small vocabularies, with case variants and alias ids, so random scopes and runs often meet.
const TEAMS = ['ADM', 'adm', 'SHOP', 'Pay', 'OPS'];
const ENVS = [
  'production',
  'Staging',
  'dev',
  'payments-prod',
  'aaaaaaaa-0000-4000-8000-000000000001',
  'bbbbbbbb-0000-4000-8000-000000000002',
];
const KEY_GLOBS = [
  'ADM-1',
  'ADM-*',
  'shop-*',
  'SHOP-1?',
  '*-1',
  './ADM-*',
  '{ADM,SHOP}-2',
  'pay-[0-9]',
  'ADM-1*',
  'ops_*',
];
const ACTION_GLOBS = [
  '*stress*',
  'com.steadybit.extension_container.*',
  'COM.STEADYBIT.EXTENSION_HOST.SHUTDOWN',
  '*stop',
  'ext_[ab].*',
];
const ACTION_IDS = [
  'com.steadybit.extension_container.stress_cpu',
  'com.steadybit.extension_host.shutdown',
  'ext_a.stop',
  'other',
];
const RUN_KEYS = ['ADM-1', 'adm-12', 'SHOP-2', 'SHOP-13', './ADM-1', 'PAY-3', 'ſhop-1', 'OPS-1', 'ops_7'];
const ALIASES =
  'kind: EnvironmentAliases\naliases:\n  production: [aaaaaaaa-0000-4000-8000-000000000001]\n  payments-prod: [bbbbbbbb-0000-4000-8000-000000000002]\n';
const NOW = new Date('2026-01-05T10:00:00Z');

const some = <T>(xs: T[]) => fc.subarray(xs, { minLength: 1, maxLength: Math.min(3, xs.length) });
const scope = fc.record(
  {
    teams: some(TEAMS),
    environments: some(ENVS),
    experimentKeys: some(KEY_GLOBS),
    createdVia: some(['UI', 'API', 'SCHEDULE']),
    actionKinds: some(['ATTACK', 'CHECK']),
    actionIds: some(ACTION_GLOBS),
  },
  { requiredKeys: [] },
);

const policyDoc = (i: number) =>
  fc
    .record({
      // Scopes of one field are drawn often too: they are what the index files under createdVia and action ids.
      match: fc.option(
        fc.oneof(scope, fc.record({ actionIds: some(ACTION_GLOBS) }), fc.record({ createdVia: some(['UI', 'API']) })),
        { nil: undefined },
      ),
      exclude: fc.option(scope, { nil: undefined }),
      mode: fc.constantFrom('enforce', 'warn', 'audit'),
      priority: fc.integer({ min: 0, max: 3 }),
      rule: fc.oneof(fc.record({ blocked: some(ENVS) }), fc.record({ allowed: some(ENVS) })),
      tag: fc.boolean(),
    })
    .map(({ match, exclude, mode, priority, rule, tag }) => ({
      kind: 'Policy',
      name: `p${i}`,
      mode,
      priority,
      rules: [{ environments: rule }],
      ...(match ? { match } : {}),
      ...(exclude ? { exclude } : {}),
      ...(tag
        ? { modifications: [{ type: 'add_value_to_list_property', propertyKey: 'tags', value: `{{policy}}-{{team}}` }] }
        : {}),
    }));

const bundleArb = fc
  .integer({ min: 1, max: 25 })
  .chain((n) => fc.tuple(...Array.from({ length: n }, (_, i) => policyDoc(i))))
  .chain((policies) =>
    fc
      .subarray(
        policies.map((p) => p.name),
        { maxLength: Math.min(2, policies.length) },
      )
      .map((waived) => ({ policies, waived })),
  );

const runArb = fc.record({
  teamKey: fc.option(fc.constantFrom(...TEAMS, 'NOBODY'), { nil: undefined }),
  environment: fc.option(fc.constantFrom(...ENVS, 'elsewhere'), { nil: undefined }),
  override: fc.option(fc.constantFrom(...ENVS), { nil: undefined }),
  experimentKey: fc.option(fc.constantFrom(...RUN_KEYS), { nil: undefined }),
  createdVia: fc.option(fc.constantFrom('UI', 'API', 'CLI'), { nil: undefined }),
  // The attack step's action id (undefined: the step does not say), and whether the run has action steps at all.
  actionId: fc.option(fc.constantFrom(...ACTION_IDS), { nil: undefined }),
  withoutActions: fc.boolean(),
});

type Run = typeof runArb extends fc.Arbitrary<infer T> ? T : never;

function payloadFor(run: Run): PreflightPayload {
  return preflightWith((p) => {
    for (const key of ['teamKey', 'environment', 'experimentKey', 'createdVia'] as const) {
      if (run[key] === undefined) delete p.execution[key];
      else p.execution[key] = run[key];
    }
    if (run.override) p.execution.overrides = { environment: run.override };
    const attack = p.execution.steps?.find((step) => step.actionId !== undefined);
    if (attack && run.actionId === undefined) delete attack.actionId;
    else if (attack && run.actionId !== undefined) attack.actionId = run.actionId;
    if (run.withoutActions) p.execution.steps = p.execution.steps?.filter((step) => step !== attack);
  });
}

describe('policy index: the same decision as a full scan', () => {
  test('for random bundles and runs, the index only leaves out policies the full scan skips for their match scope', () => {
    fc.assert(
      fc.property(bundleArb, fc.array(runArb, { minLength: 1, maxLength: 8 }), ({ policies, waived }, runs) => {
        const exceptions = waived.map((policy, i) =>
          stringify({
            kind: 'Exception',
            name: `waiver-${i}`,
            policy,
            owner: 'sre',
            reason: 'drill',
            expires: '2027-01-01T00:00:00Z',
            match: { teams: ['ADM'] },
          }),
        );
        const files: Record<string, string> = { 'aliases.yaml': ALIASES };
        policies.forEach((p) => {
          files[`${p.name}.yaml`] = stringify(p);
        });
        exceptions.forEach((e, i) => {
          files[`waiver-${i}.yaml`] = e;
        });
        const bundle = bundleFrom(files, NOW);
        for (const run of runs) {
          const payload = payloadFor(run);
          const full = decide(bundle, payload, {}, NOW, { decisionId: 'd', fullScan: true });
          const indexed = decide(bundle, payload, {}, NOW, { decisionId: 'd' });
          const visited = new Set(indexed.results.map((r) => r.policy));
          const { results: fullResults, outOfScope: _full, ...fullRest } = full;
          const { results: indexedResults, outOfScope, ...indexedRest } = indexed;
          expect(indexedRest).toEqual(fullRest);
          expect(indexedResults).toEqual(fullResults.filter((r) => visited.has(r.policy)));
          // What was left out is skipped, and its match scope alone rules the run out: a run-level field, or
          // no action step in its step filter (the full scan may name the exclude instead, checked first).
          const ctx = createContext(bundle, payload, {}, NOW, 'd');
          for (const left of fullResults.filter((r) => !visited.has(r.policy))) {
            expect(left.result).toBe('skipped');
            const { match } = bundle.policies.find((p) => p.name === left.policy)!;
            expect({
              policy: left.policy,
              ruledOut:
                match.runMiss(ctx) !== undefined ||
                (match.hasStepFilter && !ctx.actionSteps.some((s) => match.stepMatches(s))),
            }).toEqual({ policy: left.policy, ruledOut: true });
          }
          expect(outOfScope).toBe(fullResults.length - indexedResults.length);
        }
      }),
      { numRuns: 150 },
    );
  });
});
