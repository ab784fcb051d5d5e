import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { decide as decideRun } from '../../src/policy/engine/decide';
import { bundleFrom } from '../helpers/bundle-from';
import { preflightWith } from '../helpers/fixtures';

const readme = readFileSync(join(__dirname, '..', '..', 'README.md'), 'utf8');
const policy = /<!-- readme-example: policy -->\n```yaml\n([\s\S]*?)```/.exec(readme)?.[1] ?? '';

const aliases = 'kind: EnvironmentAliases\naliases:\n  production: [4f1c2a9e-0000-4000-8000-000000000001]\n';
const TUESDAY_10_BERLIN = new Date('2026-03-03T09:00:00Z');

/** The spec example as a production run, scoped the way the README policy wants. */
const scopedRun = () =>
  preflightWith((p) => {
    p.execution.environment = '4f1c2a9e-0000-4000-8000-000000000001';
    const step = p.execution.steps?.[1];
    if (step?.radius) {
      step.radius.percentage = 20;
      step.radius.predicate = {
        operator: 'AND',
        predicates: [
          { key: 'k8s.cluster-name', operator: 'EQUALS', values: ['prod-eu'] },
          { key: 'k8s.namespace', operator: 'EQUALS', values: ['shop'] },
        ],
      };
    }
  });

describe('the README policy example', () => {
  const bundle = () => bundleFrom({ 'readme.yaml': policy, 'aliases.yaml': aliases }, TUESDAY_10_BERLIN);
  const decide = (run = scopedRun(), now = TUESDAY_10_BERLIN) =>
    decideRun(bundle(), run, {}, now, { decisionId: 'd-1' });

  test('is in the README and loads without problems', () => {
    expect(policy).toContain('kind: Policy');
    expect(bundle().policies.map((p) => p.name)).toEqual(['prod-attack-limits']);
  });

  test('allows a small, scoped production attack in office hours and adds its observation', () => {
    const d = decide();
    expect(d.allowed).toBe(true);
    expect(d.modifications).toEqual([
      {
        type: 'add_value_to_list_property',
        propertyKey: 'observations',
        value: 'checked by prod-attack-limits (decision d-1)',
      },
    ]);
  });

  test.each([
    [
      'the spec predicate does not pin cluster and namespace',
      () =>
        preflightWith((p) => {
          p.execution.environment = '4f1c2a9e-0000-4000-8000-000000000001';
        }),
      TUESDAY_10_BERLIN,
      /k8s\.cluster-name/,
    ],
    ['a Saturday', scopedRun, new Date('2026-03-07T10:00:00Z'), /outside the allowed time windows/],
    [
      'a 10-minute attack',
      () => {
        const r = scopedRun();
        const s = r.execution.steps?.[1];
        if (s) s.parameters = { ...s.parameters, duration: '10m' };
        return r;
      },
      TUESDAY_10_BERLIN,
      /duration/,
    ],
  ])('denies %s, naming the policy and the experiment', (_name, run, now, reason) => {
    const d = decide(run(), now);
    expect(d.allowed).toBe(false);
    expect(d.message).toMatch(/\[prod-attack-limits\]/);
    expect(d.message).toMatch(reason);
    expect(d.message).toContain('(ADM-1 of team ADM)');
  });

  test('does not apply to the excluded team', () => {
    const run = preflightWith((p) => {
      p.execution.environment = '4f1c2a9e-0000-4000-8000-000000000001';
      p.execution.teamKey = 'SRE';
    });
    expect(decide(run).allowed).toBe(true);
  });
});
