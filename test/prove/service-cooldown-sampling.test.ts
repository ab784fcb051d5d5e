import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { RunRef } from '../../src/policy/facts/state-facts';
import { generatedSize } from '../helpers/test-lane';
import { expectSampledKinds, NOW, setDirs, setOf } from './prove-sets';

/**
 * diff over cool-downs per attacked service against runs and ended runs made without its classes:
 * random steps listing random targets (some fewer than they expect) with random values of the
 * service keys (an empty one too), and random runs ended at random times in random states under
 * random services and the environment. Whenever the two sets decide such a run differently, diff
 * has a witness of that kind.
 */
const KEYS = ['k8s.deployment', 'k8s.statefulset'];
const VALUES = ['shop', 'cart', ''];
const HOUR = 3_600_000;

const target = fc.record({
  name: fc.constantFrom('web-1', 'web-2'),
  attributes: fc
    .subarray(KEYS)
    .chain((keys) => fc.tuple(...keys.map((key) => fc.constantFrom(...VALUES).map((value) => ({ key, value }))))),
});
const step = fc
  .record({
    actionKind: fc.constantFrom('ATTACK', 'CHECK'),
    targetExecutions: fc.option(fc.array(target, { maxLength: 3 }), { nil: undefined }),
    extra: fc.nat({ max: 1 }),
  })
  .map(({ targetExecutions, extra, actionKind }) => ({
    actionId: 'com.steadybit.extension_container.stress_cpu',
    actionKind,
    ...(targetExecutions === undefined ? {} : { targetExecutions, totalTargetCount: targetExecutions.length + extra }),
  }));
const payload = fc.array(step, { minLength: 1, maxLength: 2 }).map(
  (steps): PreflightPayload =>
    ({
      event: 'experiment.execution.preflight',
      execution: { id: 7, experimentKey: 'ADM-1', teamKey: 'ADM', environment: 'staging', steps },
    }) as unknown as PreflightPayload,
);
const scopes = [
  'environment:staging',
  ...KEYS.flatMap((k) => VALUES.filter((v) => v !== '').map((v) => `service:${k}=${v}`)),
];
const run = fc.record({
  id: fc.constantFrom('r1', 'r2'),
  age: fc.integer({ min: 0, max: 4 * HOUR }),
  state: fc.constantFrom('FAILED', 'ERRORED', 'CANCELED', 'COMPLETED'),
});
/** Ended runs under random scopes, oldest first, or the part not loaded. */
const ended = fc.option(
  fc.dictionary(
    fc.constantFrom(...scopes),
    fc
      .array(run, { maxLength: 2 })
      .map((runs): RunRef[] =>
        runs
          .map((r) => ({ id: r.id, atMs: NOW.getTime() - r.age, state: r.state as RunRef['state'] }))
          .sort((a, b) => a.atMs - b.atMs),
      ),
  ),
  { nil: undefined },
);

describe('diff over cool-downs per service agrees with ended runs made without its classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const SPECS = [
    undefined,
    '{ duration: 1h, per: service }',
    '{ duration: 2h, per: service }',
    '{ duration: 1h, per: service, whenMissing: allow }',
    '{ duration: 1h, per: service, by: k8s.statefulset }',
    '{ duration: 1h, per: service, after: [FAILED, ERRORED, CANCELED] }',
    '{ duration: 1h }',
  ];
  const policy = (spec: string | undefined) =>
    `kind: Policy\nname: calm\nrules:\n  - concurrency: { maxRunning: 100 }\n${spec === undefined ? '' : `  - cooldown: ${spec}\n`}`;

  it('every sampled difference is among the witnesses', () => {
    fc.assert(
      fc.property(fc.constantFrom(...SPECS), fc.constantFrom(...SPECS), (baseSpec, proposedSpec) => {
        expectSampledKinds(
          setOf(dirs.write({ 'p.yaml': policy(baseSpec) })),
          setOf(dirs.write({ 'p.yaml': policy(proposedSpec) })),
          payload,
          ended,
          (quiet, endedRuns) => ({ ...quiet, running: {}, ended: endedRuns }),
          generatedSize(300, 100),
        );
      }),
      { numRuns: generatedSize(14, 5), seed: 48 },
    );
  });
});
