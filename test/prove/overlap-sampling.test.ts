import fc from 'fast-check';
import type { InProgressFacts } from '../../src/policy/facts/state-facts';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { generatedSize } from '../helpers/test-lane';
import { expectSampledKinds, setDirs, setOf } from './prove-sets';

/**
 * diff over noOverlap rules (docs/decisions/0048) against runs and runs in progress made without
 * its classes: random steps listing random targets (some fewer than they expect) with random values
 * of the keys, and random runs in progress sharing random targets and values, or the part not
 * loaded. Whenever the two sets decide such a run differently, diff has a witness of that kind; when
 * diff finds no difference, no such run is decided differently.
 */
const KEYS = ['host.hostname', 'k8s.zone', 'k8s.node.name'];
const NAMES = ['web-1', 'web-2', 'db-1'];
const VALUES = ['a', 'b'];

const target = fc.record({
  name: fc.constantFrom(...NAMES),
  type: fc.constantFrom('com.steadybit.extension_host.host', 'com.steadybit.extension_container.container'),
  attributes: fc
    .subarray(KEYS)
    .chain((keys) => fc.tuple(...keys.map((key) => fc.constantFrom(...VALUES).map((value) => ({ key, value }))))),
});
const step = fc
  .record(
    {
      actionId: fc.constant('com.steadybit.extension_host.stress_cpu'),
      actionKind: fc.constantFrom('ATTACK', 'CHECK'),
      targetExecutions: fc.array(target, { maxLength: 3 }),
      // Mostly every target listed: a step listing fewer is denied by every noOverlap rule alike.
      extra: fc.constantFrom(0, 0, 0, 1),
    },
    { requiredKeys: ['actionId', 'actionKind'] },
  )
  .map(({ targetExecutions, extra, ...s }) => ({
    ...s,
    ...(targetExecutions === undefined
      ? {}
      : { targetExecutions, totalTargetCount: targetExecutions.length + (extra ?? 0) }),
  }));
const payload = fc.array(step, { minLength: 1, maxLength: 2 }).map(
  (steps): PreflightPayload =>
    ({
      event: 'experiment.execution.preflight',
      execution: { id: 7, experimentKey: 'ADM-1', teamKey: 'ADM', environment: 'staging', steps },
    }) as unknown as PreflightPayload,
);
/** Runs in progress: ids 'r1'/'r2' under random targets and values (those of the run or others), or not loaded. */
const inProgress = fc.option(
  fc.record({
    // Half the time no shared target, so what the values alone decide is sampled as often.
    targets: fc.oneof(
      fc.constant({}),
      fc.dictionary(
        fc.constantFrom(
          ...NAMES.flatMap((n) => [
            `com.steadybit.extension_host.host/${n}`,
            `com.steadybit.extension_container.container/${n}`,
          ]),
        ),
        fc.subarray(['r1', 'r2'], { minLength: 1 }),
      ),
    ),
    attributes: fc.dictionary(
      fc.constantFrom(...KEYS),
      fc.dictionary(fc.constantFrom(...VALUES), fc.subarray(['r1', 'r2'], { minLength: 1 })),
    ),
  }),
  { nil: undefined },
);

describe('diff over noOverlap agrees with runs in progress made without its classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  // `masked`: a rule on both sides that denies a step not listing every target (it cannot see their
  // namespaces), so the sets differ only beside runs in progress.
  const rule = (by: string[] | undefined, masked: boolean) =>
    `kind: Policy\nname: apart\nrules:\n  - ${masked ? 'targetAttributes: { forbid: { k8s.namespace: [kube-system] } }' : 'concurrency: { maxRunning: 100 }'}\n${by === undefined ? '' : `  - noOverlap: { by: [${by.join(', ')}] }\n`}`;
  /** No rule, the rule by no key, by one, by two: every pair of them, the mask alternating. */
  const SIDES = [undefined, [], ['host.hostname'], ['host.hostname', 'k8s.zone']];
  const pairs = SIDES.flatMap((b, i) => SIDES.map((p, j) => ({ b, p, masked: (i + j) % 2 === 1 })));

  it.each([0, 1])('every sampled difference is among the witnesses (pairs %i of 2)', (half) => {
    for (const { b, p, masked } of pairs.filter((_, i) => i % 2 === half))
      expectSampledKinds(
        setOf(dirs.write({ 'p.yaml': rule(b, masked) })),
        setOf(dirs.write({ 'p.yaml': rule(p, masked) })),
        payload,
        inProgress,
        (quiet, progress) => ({
          ...quiet,
          inProgress:
            progress === undefined
              ? undefined
              : ({ runs: { r1: { team: 'X' }, r2: { team: 'Y' } }, ...progress } as InProgressFacts),
        }),
        generatedSize(150, 60),
      );
  });
});
