import type { Step } from '../../../src/payload/types';
import { decide } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { NOW, policyDocument, reasonsFor, withAttack } from '../../helpers/decide-harness';

const S1 = 'step "com.steadybit.extension_container.stress_cpu" (steps[1])';
const CONTAINER = 'com.steadybit.extension_container.container';

/** The spec example with a second attack (on hosts) appended as steps[2]. */
const twoAttacks = (first: Partial<Step>, second: Partial<Step>) =>
  withAttack((s, p) => {
    Object.assign(s, first);
    p.execution.steps?.push({
      actionId: 'com.steadybit.extension_host.stress_mem',
      actionKind: 'ATTACK',
      radius: { targetType: 'com.steadybit.extension_host.host', percentage: 10 },
      ...second,
    });
  });

describe('targets rule', () => {
  test('policies of one request each count the steps of their own scope', () => {
    const files = {
      'a.yaml': policyDocument('targets: {maxTotal: 20}', '', 'all-steps'),
      'b.yaml': policyDocument('targets: {maxTotal: 6}', 'match:\n  actionIds: ["*stress_mem*"]\n', 'mem-only'),
    };
    const d = decide(bundleFrom(files, NOW), twoAttacks({ totalTargetCount: 15 }, { totalTargetCount: 6 }), {}, NOW, {
      decisionId: 'd-1',
    });
    expect(Object.fromEntries(d.results.map((r) => [r.policy, r.result]))).toEqual({
      'all-steps': 'deny',
      'mem-only': 'pass',
    });
  });

  test.each([
    ['per-step cap passes at the cap', 'targets: {maxPerStep: 1}', withAttack(() => {}), []],
    [
      'per-step cap denies above it, naming step, count and source',
      'targets: {maxPerStep: 10}',
      withAttack((s) => {
        s.totalTargetCount = 12;
      }),
      [`${S1} expects 12 targets (totalTargetCount 12), more than the 10 allowed per step`],
    ],
    [
      'missing totalTargetCount falls back to the listed targets and says so',
      'targets: {maxPerStep: 0}',
      withAttack((s) => {
        delete s.totalTargetCount;
      }),
      [
        `${S1} expects 1 target (1 listed in targetExecutions; totalTargetCount not sent), more than the 0 allowed per step`,
      ],
    ],
    [
      'neither count nor targets cannot be decided',
      'targets: {maxPerStep: 10}',
      withAttack((s) => {
        delete s.totalTargetCount;
        delete s.targetExecutions;
      }),
      [`cannot decide: ${S1} sends neither totalTargetCount nor targetExecutions, so its number of targets is unknown`],
    ],
    [
      'the total over the run sums the steps in scope',
      'targets: {maxTotal: 20}',
      twoAttacks({ totalTargetCount: 15 }, { totalTargetCount: 6 }),
      [
        "the run's steps expect 21 targets in total (com.steadybit.extension_container.stress_cpu: 15, com.steadybit.extension_host.stress_mem: 6), more than the 20 allowed",
      ],
    ],
    [
      'the total passes at the cap',
      'targets: {maxTotal: 21}',
      twoAttacks({ totalTargetCount: 15 }, { totalTargetCount: 6 }),
      [],
    ],
    [
      'a per-type cap only counts steps on that type',
      'targets: {perType: {"*.host": {maxPerStep: 5}}}',
      twoAttacks({ totalTargetCount: 15 }, { totalTargetCount: 6 }),
      [
        'step "com.steadybit.extension_host.stress_mem" (steps[2]) expects 6 targets of a type matching "*.host" (totalTargetCount 6), more than the 5 allowed per step',
      ],
    ],
    [
      'a per-type total',
      'targets: {perType: {"com.steadybit.extension_container.*": {maxTotal: 3}}}',
      twoAttacks({ totalTargetCount: 4 }, { totalTargetCount: 100 }),
      [expect.stringContaining('expect 4 targets of a type matching "com.steadybit.extension_container.*" in total')],
    ],
    [
      "the target type falls back to the listed targets' type",
      'targets: {perType: {"*container": {maxPerStep: 0}}}',
      withAttack((s) => {
        delete s.radius;
      }),
      [expect.stringContaining('expects 1 target of a type matching "*container"')],
    ],
    [
      'no target type cannot be decided for per-type caps',
      'targets: {perType: {"*container": {maxPerStep: 9}}}',
      withAttack((s) => {
        delete s.radius;
        s.targetExecutions = [{ name: 'x' }];
      }),
      [`cannot decide: ${S1} names no target type (radius.targetType), so the caps for "*container" cannot be applied`],
    ],
    [
      'percentage above the cap',
      'targets: {maxPercentage: 25}',
      withAttack(() => {}),
      [`${S1} affects 50% of the matching targets (radius.percentage); at most 25% is allowed`],
    ],
    ['percentage at the cap passes', 'targets: {maxPercentage: 50}', withAttack(() => {}), []],
    [
      'no percentage and no maximum counts as 100%',
      'targets: {maxPercentage: 50}',
      withAttack((s) => {
        delete s.radius?.percentage;
      }),
      [
        `${S1} sets neither radius.percentage nor radius.maximum, so it affects 100% of the matching targets; at most 50% is allowed`,
      ],
    ],
    [
      'a maximum instead of a percentage is left to the count caps',
      'targets: {maxPercentage: 50}',
      withAttack((s) => {
        delete s.radius?.percentage;
        if (s.radius) s.radius.maximum = 2;
      }),
      [],
    ],
    [
      'a maximum next to a percentage does not hide the percentage',
      'targets: {maxPercentage: 25}',
      withAttack((s) => {
        if (s.radius) s.radius.maximum = 100000;
      }),
      [`${S1} affects 50% of the matching targets (radius.percentage); at most 25% is allowed`],
    ],
    [
      'requireMaximum denies a step without radius.maximum',
      'targets: {requireMaximum: true}',
      withAttack(() => {}),
      [`${S1} sets no radius.maximum; this policy requires a fixed maximum number of targets`],
    ],
    [
      'requireMaximum passes with a maximum',
      'targets: {requireMaximum: true}',
      withAttack((s) => {
        if (s.radius) s.radius.maximum = 3;
      }),
      [],
    ],
    [
      'denyEmpty denies a step expecting no targets',
      'targets: {denyEmpty: true}',
      withAttack((s) => {
        s.totalTargetCount = 0;
        s.targetExecutions = [];
      }),
      [`${S1} expects no targets (totalTargetCount 0); this policy denies steps that would act on nothing`],
    ],
    [
      'without denyEmpty an empty step passes',
      'targets: {maxPerStep: 5}',
      withAttack((s) => {
        s.totalTargetCount = 0;
      }),
      [],
    ],
    [
      'CHECK steps without targets are not counted',
      'targets: {maxPerStep: 0, denyEmpty: true}',
      withAttack((s) => {
        s.actionKind = 'CHECK';
        delete s.radius;
        delete s.targetExecutions;
        delete s.totalTargetCount;
      }),
      [],
    ],
    [
      'a step of unknown kind without target data cannot be decided',
      'targets: {maxPerStep: 5}',
      withAttack((s) => {
        delete s.actionKind;
        delete s.radius;
        delete s.targetExecutions;
        delete s.totalTargetCount;
      }),
      [expect.stringMatching(/^cannot decide: .* sends neither totalTargetCount nor targetExecutions/)],
    ],
  ])('%s', (_name, rule, payload, expected) => {
    expect(reasonsFor(rule, payload)).toEqual(expected);
  });

  test('a type-scoped policy (match.actionIds) only counts the steps it matches', () => {
    const scope = 'match: {actionIds: ["*stress_mem"]}\n';
    expect(
      reasonsFor('targets: {maxTotal: 10}', twoAttacks({ totalTargetCount: 50 }, { totalTargetCount: 6 }), scope),
    ).toEqual([]);
  });

  test("the fixture's container type is what per-type globs see", () => {
    expect(
      reasonsFor(
        `targets: {perType: {"${CONTAINER}": {maxPerStep: 0}}}`,
        withAttack(() => {}),
      ),
    ).toHaveLength(1);
  });
});
