import { join } from 'node:path';
import { decide as decideRun } from '../../src/policy/engine/decide';
import { formatProblem } from '../../src/policy/compile/load-error';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import type { PolicyBundle } from '../../src/policy/core/compiled';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { preflightWith } from '../helpers/fixtures';
import { ROOT } from '../helpers/server-process';

const PRODUCTION = '4f1c2a9e-0000-4000-8000-000000000001';

function starterBundle(now: Date): PolicyBundle {
  const result = loadPolicyDir(join(ROOT, 'policies'), now);
  if (!result.ok) throw new Error(result.problems.map(formatProblem).join('\n'));
  return result.bundle;
}
const bundle = starterBundle(new Date('2026-01-05T10:00:00Z'));
const decide = (now: string | Date, change: (p: PreflightPayload) => void = () => undefined) =>
  decideRun(bundle, preflightWith(change), {}, new Date(now), { decisionId: 'd-1', fullScan: true });
const denied = (d: ReturnType<typeof decide>) => d.results.filter((r) => r.result === 'deny').map((r) => r.policy);

/** Moments that matter to the starter windows and freezes, across both DST changes. */
const PINNED = [
  '2026-01-03T03:00:00Z', // Saturday night
  '2026-01-05T10:00:00Z', // Monday morning
  '2026-03-29T01:30:00Z', // Berlin spring forward
  '2026-06-12T14:30:00Z', // Friday afternoon, summer
  '2026-10-25T01:30:00Z', // Berlin fall back (repeated hour)
  '2026-11-27T12:00:00Z', // Black Friday
  '2026-12-24T18:00:00Z', // year-end freeze
  '2027-03-31T12:00:00Z', // quarter close
];

describe('the starter policies in policies/', () => {
  test('load without errors or warnings', () => {
    const result = loadPolicyDir(join(ROOT, 'policies'), new Date('2026-01-05T10:00:00Z'));
    expect(result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem)).toEqual([]);
  });

  // Nothing in the starter set may rot: a dated freeze warns once it has ended, and `validate
  // --strict` (CI, the Action) then fails. Its freezes come back every year instead.
  test.each(['2027-01-05T00:00:00Z', '2029-06-01T00:00:00Z', '2036-12-31T23:59:00Z', '2126-03-01T00:00:00Z'])(
    'load without warnings in later years too (%s)',
    (now) => {
      const result = loadPolicyDir(join(ROOT, 'policies'), new Date(now));
      expect(result.ok ? result.warnings.map(formatProblem) : result.problems.map(formatProblem)).toEqual([]);
    },
  );

  test.each(PINNED)('the spec example payload is allowed at %s', (now) => {
    const d = decide(now);
    expect(denied(d)).toEqual([]);
    expect(d.allowed).toBe(true);
  });

  test('the spec example payload is allowed at every hour of a year, both DST changes included', () => {
    const refused: string[] = [];
    const payload = preflightWith(() => undefined);
    for (let t = Date.parse('2026-01-01T00:30:00Z'); t < Date.parse('2027-01-01T00:00:00Z'); t += 3600_000) {
      const d = decideRun(bundle, payload, {}, new Date(t), { decisionId: 'd-1' });
      if (!d.allowed) refused.push(`${new Date(t).toISOString()}: ${d.message}`);
    }
    expect(refused).toEqual([]);
  });

  test.each(PINNED)('a run in payments-prod is denied by blocked-environments at %s', (now) => {
    const d = decide(now, (p) => {
      p.execution.environment = 'payments-prod';
    });
    expect(d.allowed).toBe(false);
    expect(denied(d)).toContain('blocked-environments');
    expect(d.message).toMatch(
      /^Denied by \d+ polic(y|ies): \[blocked-environments\] environment payments-prod is blocked/,
    );
  });

  const inProduction =
    (change: (p: PreflightPayload) => void = () => undefined) =>
    (p: PreflightPayload) => {
      p.execution.environment = PRODUCTION;
      const attack = p.execution.steps?.[1];
      if (attack) attack.parameters = { ...attack.parameters, cpuLoad: 70 };
      if (attack?.radius) attack.radius.percentage = 20;
      change(p);
    };
  test.each<[string, string, (p: PreflightPayload) => void, string[]]>([
    ['production on a Monday morning is allowed', '2026-01-05T10:00:00Z', inProduction(), []],
    [
      'production on a Saturday is outside business hours',
      '2026-01-10T10:00:00Z',
      inProduction(),
      ['production-business-hours'],
    ],
    [
      'production at 17:30 Berlin summer time is outside business hours',
      '2026-06-09T15:30:00Z',
      inProduction(),
      ['production-business-hours'],
    ],
    [
      'a CHECK-only production run may run at night',
      '2026-01-10T02:00:00Z',
      inProduction((p) => {
        // With its url: an HTTP step that does not send it may be creating a silence (no-muting).
        p.execution.steps = [
          {
            actionId: 'com.steadybit.extension_http.check',
            actionKind: 'CHECK',
            parameters: { url: 'https://shop.example.com/health' },
          },
        ];
      }),
      [],
    ],
    ['production during the year-end freeze', '2026-12-21T10:00:00Z', inProduction(), ['change-freeze-calendar']],
    ['production on a Friday afternoon', '2026-01-09T15:00:00Z', inProduction(), ['change-freeze-calendar']],
    [
      'a shutdown action in production',
      '2026-01-05T10:00:00Z',
      inProduction((p) => {
        if (p.execution.steps?.[1]) p.execution.steps[1].actionId = 'com.steadybit.extension_host.shutdown';
      }),
      ['production-guardrails'],
    ],
    [
      'cpuLoad 100 in production',
      '2026-01-05T10:00:00Z',
      inProduction((p) => {
        if (p.execution.steps?.[1]) p.execution.steps[1].parameters = { cpuLoad: 100 };
      }),
      ['production-guardrails'],
    ],
    [
      '60% of the targets anywhere',
      '2026-01-05T10:00:00Z',
      (p) => {
        if (p.execution.steps?.[1]?.radius) p.execution.steps[1].radius.percentage = 60;
      },
      ['blast-radius-caps'],
    ],
    [
      'a scheduled run on 12 targets',
      '2026-01-05T10:00:00Z',
      (p) => {
        p.execution.createdVia = 'SCHEDULE';
        if (p.execution.steps?.[1]) p.execution.steps[1].totalTargetCount = 12;
      },
      ['unattended-run-caps'],
    ],
    [
      'a kubernetes action in production without a cluster scope',
      '2026-01-05T10:00:00Z',
      inProduction((p) => {
        if (p.execution.steps?.[1])
          p.execution.steps[1].actionId = 'com.steadybit.extension_kubernetes.rollout_restart';
      }),
      ['kubernetes-namespace-guard'],
    ],
  ])('%s', (_name, now, change, expected) => {
    const d = decide(now, change);
    expect(denied(d)).toEqual(expected);
    expect(d.allowed).toBe(expected.length === 0);
  });

  test('an allowed production run records the decision id and the policy revision', () => {
    const d = decide('2026-01-05T10:00:00Z', inProduction());
    expect(d.modifications).toEqual([
      { type: 'set_property_value', propertyKey: 'preflightDecisionId', value: 'd-1' },
      { type: 'set_property_value', propertyKey: 'preflightPolicyRevision', value: bundle.revision },
      {
        type: 'add_value_to_list_property',
        propertyKey: 'observations',
        value: `preflight-gate allowed this run at 2026-01-05T10:00:00.000Z (decision d-1, policy revision ${bundle.revision})`,
      },
    ]);
  });

  test('a run expecting many targets is allowed with a warning', () => {
    const d = decide('2026-01-05T10:00:00Z', (p) => {
      if (p.execution.steps?.[1]) p.execution.steps[1].totalTargetCount = 25;
    });
    expect(d.allowed).toBe(true);
    expect(d.message).toMatch(
      /^Allowed with warnings: \[large-run-warning\] would deny: the run expects more than 20 targets in total \(ADM-1\)/,
    );
  });
});
