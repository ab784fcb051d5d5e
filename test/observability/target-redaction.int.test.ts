import { auditRecord } from '../../src/observability/audit-record';
import { REDACTED } from '../../src/redaction/redaction-marker';
import { targetValuesToRedact } from '../../src/redaction/target-redaction';
import type { Decision, PolicyResult } from '../../src/policy/core/decision';
import { preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { memoryAuditLog } from './audit-sink';

const target = (name: unknown, attributes: unknown) => ({ name, attributes });
const attr = (key: unknown, value: unknown) => ({ key, value });

/** A body with targets on a step, on a validation nested two deep, and shapes a lenient reader must skip. */
const BODY = {
  execution: {
    steps: [
      {
        targetExecutions: [target('web-1', [attr('k8s.namespace', 'prod'), attr('k8s.cluster', 'eu-central-cluster')])],
      },
      'not a step',
      {
        targetExecutions: 'not a list',
        validations: [
          { validations: [{ targetExecutions: [target('db-1', [attr('k8s.namespace', 'payments-db')])] }] },
        ],
      },
      {
        targetExecutions: [
          null,
          target(42, 'no list'),
          target('cache-1', [null, attr('k8s.namespace', 7), attr(1, 'x'), attr('host', '')]),
        ],
      },
    ],
  },
};

describe('targetValuesToRedact', () => {
  it('collects target names and attribute values from steps and nested validations, longest first', () => {
    expect(targetValuesToRedact(BODY, { kind: 'all' })).toEqual([
      'eu-central-cluster',
      'payments-db',
      'cache-1',
      'web-1',
      'prod',
      'db-1',
      'x',
    ]);
  });

  it('with a key list, only the values of those keys and no target names', () => {
    expect(targetValuesToRedact(BODY, { kind: 'keys', keys: ['k8s.namespace'] })).toEqual(['payments-db', 'prod']);
  });

  it('the values of radius predicate leaves, at any depth, of the listed keys (or all): they select targets by them', () => {
    const radius = {
      predicate: {
        operator: 'AND',
        predicates: [
          { key: 'k8s.namespace', operator: 'EQUALS', values: ['shop', 'checkout'] },
          { operator: 'OR', predicates: [{ key: 'k8s.cluster', operator: 'EQUALS', values: ['east'] }] },
        ],
      },
    };
    const body = { execution: { steps: [{ radius, targetExecutions: [] }] } };
    expect(targetValuesToRedact(body, { kind: 'keys', keys: ['k8s.namespace'] })).toEqual(['checkout', 'shop']);
    expect(targetValuesToRedact(body, { kind: 'all' }).sort()).toEqual(['checkout', 'east', 'shop']);
  });

  it('nothing without redaction, and nothing from a body that is not a payload', () => {
    expect(targetValuesToRedact(BODY, { kind: 'none' })).toEqual([]);
    for (const body of [undefined, null, 'text', [], { execution: null }, { execution: { steps: {} } }]) {
      expect(targetValuesToRedact(body, { kind: 'all' })).toEqual([]);
    }
  });
});

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

const result = (
  policy: string,
  kind: PolicyResult['result'],
  reasons: string[],
  extra: Partial<PolicyResult> = {},
): PolicyResult => ({
  policy,
  mode: kind === 'warn' ? 'warn' : 'enforce',
  priority: 0,
  result: kind,
  reasons,
  source: { file: `${policy}.yaml`, line: 1, col: 1 },
  ...extra,
});

describe('auditRecord on a decision other answers share', () => {
  // Policy results are shared (a pass is one frozen object per policy); the audit line must copy before it masks.
  const decision: Decision = deepFreeze({
    id: 'd-1',
    allowed: false,
    message: 'Denied: namespace prod is protected',
    modifications: [{ type: 'set_property_value', propertyKey: 'label', value: ['prod', 'kept'] }],
    conflicts: [],
    revision: 'r1',
    evaluatedAt: '2026-11-23T10:00:00.000Z',
    results: [
      result('protect-prod', 'deny', ['namespace prod is protected', 'nothing to mask here'], {
        findings: [
          {
            rule: 'rules[0].targetAttributes',
            reason: 'namespace prod is protected',
            target: 'web-1',
            value: 'k8s.namespace=prod',
          },
          { rule: 'rules[1].environments', reason: 'nothing to mask here' },
        ],
      }),
      result('quiet', 'warn', ['no target named']),
      result('passes', 'pass', ['passed: environments']),
    ],
  });
  const facts = (body: unknown) => ({
    decisionId: 'd-1',
    time: new Date('2026-11-23T10:00:00Z'),
    status: 403,
    decision,
    body,
    revision: 'r1',
    durationMs: 1,
  });
  const body = { execution: { steps: [{ targetExecutions: [target('web-1', [attr('k8s.namespace', 'prod')])] }] } };

  it('masks the line without writing to the decision (frozen here, so a write would throw)', () => {
    const before = JSON.stringify(decision);
    const record = auditRecord(facts(body), { kind: 'all' });
    expect(record.message).toBe(`Denied: namespace ${REDACTED} is protected`);
    expect(record.policies[0].reasons).toEqual([`namespace ${REDACTED} is protected`, 'nothing to mask here']);
    expect(record.policies[0].findings).toEqual([
      {
        rule: 'rules[0].targetAttributes',
        reason: `namespace ${REDACTED} is protected`,
        target: REDACTED,
        value: `k8s.namespace=${REDACTED}`,
      },
      { rule: 'rules[1].environments', reason: 'nothing to mask here' },
    ]);
    expect(record.policies[1].reasons).toEqual(['no target named']);
    expect(record.modifications).toEqual([
      { type: 'set_property_value', propertyKey: 'label', value: [REDACTED, 'kept'] },
    ]);
    expect(JSON.stringify(decision)).toBe(before);
  });

  it('a later line of the same decision without redaction still reads the original texts', () => {
    auditRecord(facts(body), { kind: 'all' });
    const plain = auditRecord(facts(body), { kind: 'none' });
    expect(plain.message).toBe('Denied: namespace prod is protected');
    expect(plain.policies[0].findings?.[0]).toMatchObject({ target: 'web-1', value: 'k8s.namespace=prod' });
    expect(plain.modifications[0].value).toEqual(['prod', 'kept']);
  });
});

describe('a body nested as deep as the body limit allows', () => {
  it('is denied with a message naming the nesting, and its answer still gets an audit line with the deep target masked', async () => {
    const sink = memoryAuditLog('info', { kind: 'all' });
    const { app } = testApp(
      bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [x] }\n' }),
      { audit: sink.audit, secrets: ['s'] },
    );
    const depth = 50_000;
    const leaf = '{"actionId":"x.check","actionKind":"CHECK","targetExecutions":[{"name":"deep-leaf-host"}]}';
    const body = preflightWith((p) => {
      p.execution.steps?.push('__NESTED__' as never);
    });
    const raw = Buffer.from(
      JSON.stringify(body).replace('"__NESTED__"', '{"validations":['.repeat(depth) + leaf + ']}'.repeat(depth)),
    );
    const res = await signedRequest(app, raw, { secret: 's' });
    expect(res.status).toBe(400);
    expect(res.body.message).toMatch(
      /^invalid preflight payload: execution\.steps\[\d+\] nests validations inside validations more than \d+ levels deep/,
    );
    expect(sink.records()).toEqual([
      expect.objectContaining({ decision: 'error', status: 400, message: res.body.message }),
    ]);
    // The deepest target's name was collected (no stack overflow on the way) and would be masked.
    expect(targetValuesToRedact(JSON.parse(raw.toString()), { kind: 'all' })).toContain('deep-leaf-host');
  });
});
