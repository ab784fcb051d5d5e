import type { AttributeRedaction } from '../../src/redaction/attribute-redaction';
import { REDACTED } from '../../src/redaction/redaction-marker';
import { redactText } from '../../src/redaction/target-redaction';
import { preflightWith } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { memoryAuditLog } from './audit-sink';

// The spec example's container target carries container.engine=docker and container.host=docker-desktop.
const TARGET_NAME = 'docker://1f769d01b9c5cd29bb302ca40157274f38798104208117b3310825ba676883ea';
const POLICIES = {
  'no-docker.yaml': [
    'kind: Policy',
    'name: no-docker-engine',
    'rules:',
    '  - targetAttributes:',
    '      forbid: {container.engine: [docker], container.host: [docker-desktop]}',
    'message: "{{reason}} (target {{target}})"',
  ].join('\n'),
  'careful.yaml':
    'kind: Policy\nname: careful-in-payments\nmode: warn\nrules:\n  - environments:\n      blocked: [payments]\n',
};

async function auditOf(redaction: AttributeRedaction, change: Parameters<typeof preflightWith>[0] = () => undefined) {
  const sink = memoryAuditLog('info', redaction);
  const { app } = testApp(bundleFrom(POLICIES), { audit: sink.audit, newId: () => 'decision-1' });
  const res = await signedRequest(
    app,
    preflightWith((p) => {
      p.execution.environment = 'payments';
      change(p);
    }),
  );
  expect(sink.lines).toHaveLength(1);
  return { res, line: sink.lines[0], record: sink.records()[0] };
}

describe('the audit line of a decision', () => {
  it('names the run, the decision, every policy with its result and reasons, the revision and the duration', async () => {
    const { res, record } = await auditOf({ kind: 'none' });
    expect(res.status).toBe(403);
    expect(record).toMatchObject({
      log: 'audit',
      level: 'warn',
      decisionId: 'decision-1',
      decision: 'deny',
      status: 403,
      executionId: 1,
      experimentKey: 'ADM-1',
      team: 'ADM',
      environment: 'payments',
      message: res.body.message,
      revision: res.headers['x-preflight-policy-revision'],
      redaction: 'none',
    });
    expect(Date.parse(record.time)).not.toBeNaN();
    expect(record.durationMs).toBeGreaterThanOrEqual(0);
    expect(record.policies.map((p) => [p.policy, p.mode, p.result])).toEqual([
      ['careful-in-payments', 'warn', 'warn'],
      ['no-docker-engine', 'enforce', 'deny'],
    ]);
    expect(record.policies[1].reasons.join(' ')).toContain('container.engine=docker');
    expect(record.policies[1].findings?.[0]).toMatchObject({ rule: 'rules[0].targetAttributes', target: TARGET_NAME });
  });

  it.each([
    [
      'true masks every attribute value and the target names',
      { kind: 'all' } as const,
      ['docker', 'docker-desktop', TARGET_NAME],
    ],
    [
      'a key list masks the values of those keys only',
      { kind: 'keys', keys: ['container.engine'] } as const,
      ['docker'],
    ],
  ])('redaction %s', async (_name, redaction, hidden) => {
    // Without redaction every value to hide is in the record: the checks below can see a leak.
    const plain = await auditOf({ kind: 'none' });
    const plainText = JSON.stringify(plain.record.policies) + plain.record.message;
    for (const value of hidden)
      expect([
        value,
        plainText.match(new RegExp(`(?<![\\w-])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`)) !== null,
      ]).toEqual([value, true]);
    const { line, record } = await auditOf(redaction);
    const text = JSON.stringify(record.policies) + record.message;
    for (const value of hidden)
      expect(text).not.toMatch(new RegExp(`(?<![\\w-])${value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}(?![\\w-])`));
    expect(line).toContain(`container.engine=${REDACTED}`);
    // The run's own facts are not target attributes: they stay as sent.
    expect(record).toMatchObject({ experimentKey: 'ADM-1', team: 'ADM', environment: 'payments', decision: 'deny' });
  });

  it('keeps the names the operator chose: a policy named after a value stays readable', async () => {
    const { record } = await auditOf({ kind: 'all' });
    expect(record.policies.map((p) => p.policy)).toEqual(['careful-in-payments', 'no-docker-engine']);
    expect(record.message).toContain('[no-docker-engine]');
    expect(record.policies[1].findings?.[0]).toMatchObject({
      rule: 'rules[0].targetAttributes',
      target: REDACTED,
      value: `container.engine=${REDACTED}`,
    });
  });

  it('a key list leaves other attributes and the target names readable', async () => {
    const { record } = await auditOf({ kind: 'keys', keys: ['container.host'] });
    expect(JSON.stringify(record.policies)).toContain('container.engine=docker');
    expect(JSON.stringify(record.policies)).toContain(TARGET_NAME);
  });

  it("keeps the run's own fields as sent even when one equals an attribute value; the free text masks it", async () => {
    const { record } = await auditOf({ kind: 'all' }, (p) => {
      p.execution.environment = 'docker';
    });
    expect(record.environment).toBe('docker');
    expect(record.message).not.toMatch(/(?<![\w-])docker(?![\w-])/);
    expect(record.message).toContain(REDACTED);
  });
});

describe('which policies an audit line lists', () => {
  // The spec example: team ADM, experiment ADM-1, steps with action ids com.steadybit.extension_*.
  const SET = {
    'other-team.yaml':
      'kind: Policy\nname: other-team\nmatch: { teams: [SHOP] }\nrules:\n  - environments: { blocked: [x] }\n',
    'no-such-step.yaml':
      'kind: Policy\nname: no-such-step\nmatch: { actionIds: ["*.no-such-action"] }\nrules:\n  - environments: { blocked: [x] }\n',
    'passes.yaml': 'kind: Policy\nname: passes\nrules:\n  - environments: { blocked: [x] }\n',
    'audited.yaml': 'kind: Policy\nname: audited\nmode: audit\nrules:\n  - environments: { blocked: [payments] }\n',
    'waived.yaml': 'kind: Policy\nname: waived\nrules:\n  - environments: { blocked: [payments] }\n',
    'waiver.yaml':
      'kind: Exception\nname: game-day\npolicy: waived\nowner: jane@example.com\nreason: approved game day\nexpires: "2099-01-01T00:00:00Z"\nmatch: { teams: [ADM] }\n',
  };

  it('lists what found something or was waived, names the passes, counts the rest in notApplied', async () => {
    const sink = memoryAuditLog('info', { kind: 'none' });
    const { app } = testApp(bundleFrom(SET), { audit: sink.audit });
    const res = await signedRequest(
      app,
      preflightWith((p) => {
        p.execution.environment = 'payments';
      }),
    );
    expect(res.status).toBe(200);
    const [record] = sink.records();
    expect(record.policies.map((p) => [p.policy, p.result, p.exception])).toEqual([
      ['audited', 'audit', undefined],
      ['waived', 'skipped', 'game-day'],
    ]);
    expect(record.policies[0].reasons).toEqual(['environment payments is blocked']);
    expect(record.policies[1].reasons.join(' ')).toMatch(/^waived by exception "game-day"/);
    expect(record.passed).toEqual(['passes']);
    // other-team is ruled out by the index (never visited), no-such-step is visited and skipped: both count.
    expect(record.notApplied).toBe(2);
  });

  it('an error answer lists no policy and counts none', async () => {
    const sink = memoryAuditLog('info', { kind: 'none' });
    const { app } = testApp(bundleFrom(SET), { audit: sink.audit, secrets: ['s'] });
    expect(
      (
        await signedRequest(
          app,
          preflightWith(() => undefined),
        )
      ).status,
    ).toBe(401);
    expect(sink.records()[0]).toMatchObject({ decision: 'error', policies: [], passed: [], notApplied: 0 });
  });
});

describe('redactText', () => {
  it.each([
    ['masks a whole value', 'namespace prod is forbidden', ['prod'], `namespace ${REDACTED} is forbidden`],
    ['leaves a longer word alone', 'namespace prod, not production', ['prod'], `namespace ${REDACTED}, not production`],
    [
      'leaves dashed and dotted names alone',
      'policy no-prod-runs on web-1.prod',
      ['prod'],
      'policy no-prod-runs on web-1.prod',
    ],
    ['masks a value at the end of a sentence', 'the namespace is prod.', ['prod'], `the namespace is ${REDACTED}.`],
    [
      'masks a value after "=" and inside brackets',
      'k8s.namespace=prod [prod]',
      ['prod'],
      `k8s.namespace=${REDACTED} [${REDACTED}]`,
    ],
    ['masks the longer of two overlapping values whole', 'host web-1.prod', ['web-1.prod', 'prod'], `host ${REDACTED}`],
    ['masks values with regex characters literally', 'label a+b (x)', ['a+b', '(x)'], `label ${REDACTED} ${REDACTED}`],
    ['masks nothing without values', 'namespace prod', [], 'namespace prod'],
  ])('%s', (_name, text, values, expected) => {
    const sorted = [...values].sort((a, b) => b.length - a.length);
    expect(redactText(text, sorted)).toBe(expected);
  });
});
