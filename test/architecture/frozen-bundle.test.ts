import { join } from 'node:path';
import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';
import { generatePolicySet } from '../helpers/policy-sets/generate-policies';
import { benchPayloads } from '../helpers/policy-sets/bench-payloads';
import { builtInPolicies, withBuiltIns } from '../../src/policy/compile/built-in-policies';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { loadBundle } from '../../src/policy/loading/load-bundle';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { deepFreeze } from '../helpers/deep-freeze';
import { examplePayloadFiles, payload, preflightWith } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';
import { FULL_RUN_ONLY_SET, generatedSize, inFastLane } from '../helpers/test-lane';

/**
 * Issue 20, item 2: the compiled bundle is read-only once loaded. Deep-frozen (Maps and Sets
 * included), it decides every payload as an unfrozen copy does: nothing a decision computes is
 * written to it.
 */
const NOWS = ['2026-01-05T10:00:00Z', '2026-01-10T03:00:00Z', '2026-11-27T14:00:00Z'].map((t) => new Date(t));

function payloads(): PreflightPayload[] {
  const fixtures = examplePayloadFiles()
    .map((f) => payload<PreflightPayload>(f))
    .filter((p) => p.event === 'experiment.execution.preflight');
  const envs = ['production', 'prod', 'staging', 'dev', 'payments-prod'];
  return [
    ...fixtures,
    ...benchPayloads().map((v) => v.payload),
    ...envs.map((env) =>
      preflightWith((p) => {
        p.execution.environment = env;
      }),
    ),
    preflightWith((p) => {
      delete p.execution.teamKey;
      delete p.execution.environment;
    }),
  ];
}

const STATES: Facts[] = [
  {},
  { state: { emergencyStop: { engaged: false }, running: {}, ended: {}, started: {} } },
  {
    state: {
      emergencyStop: { engaged: true, by: 'jane', since: '2026-01-05T09:59:00Z' },
      running: {},
      ended: {},
      started: {},
    },
  },
];

function load(files: ReturnType<typeof generatePolicySet> | string): PolicyBundle {
  const result = typeof files === 'string' ? loadPolicyDir(files, NOWS[0]) : loadBundle(files, NOWS[0]);
  if (!result.ok) throw new Error(result.problems[0].message);
  return withBuiltIns(result.bundle, builtInPolicies('enforce'));
}

// Full scans visit every policy: at 1,000 policies at one time only, at 10,000 not at all (the index
// visits a few hundred). The 10,000 set only in `npm test`, not in the fast lane, which generates 200
// policies instead of 1,000 (test/helpers/test-lane.ts).
const GENERATED = generatedSize(1000, 200);
type PolicySet = [name: string, files: () => ReturnType<typeof generatePolicySet> | string, fullScanTimes: number];
const SETS: PolicySet[] = [
  ['the bundled policies', () => join(ROOT, 'policies'), NOWS.length],
  [
    `${GENERATED.toLocaleString('en-US')} generated policies`,
    () => generatePolicySet(GENERATED, usableRuleKinds().usable),
    1,
  ],
  ...(inFastLane()
    ? []
    : [
        [
          '10,000 generated policies',
          () => generatePolicySet(FULL_RUN_ONLY_SET, usableRuleKinds().usable),
          0,
        ] satisfies PolicySet,
      ]),
];

describe.each(SETS)('%s, deep-frozen', (_name, files, fullScanTimes) => {
  test('decide the same as an unfrozen bundle, indexed and in full, and never write to it', () => {
    const frozen = deepFreeze(load(files()));
    const plain = load(files());
    let decided = 0;
    for (const p of payloads())
      for (const [t, now] of NOWS.entries())
        for (const facts of STATES)
          for (const fullScan of t < fullScanTimes ? [false, true] : [false]) {
            const opts = { decisionId: 'd', fullScan };
            expect(JSON.stringify(decide(frozen, p, facts, now, opts))).toBe(
              JSON.stringify(decide(plain, p, facts, now, opts)),
            );
            decided++;
          }
    expect(decided).toBeGreaterThan(60);
    expect(Object.isFrozen(frozen.policies[0].match)).toBe(true);
  }, 300_000);
});
