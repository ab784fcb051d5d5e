import { decide } from '../../src/policy/engine/decide';
import { preflightPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { decideAt } from '../helpers/decide-harness';

const NOW = '2026-01-05T10:00:00Z';
const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}`;
const files = {
  'pass.yaml': policy(
    'passes',
    'rules:\n  - condition: {deny: false, reason: never}\n  - timeWindow: {timeZone: UTC, allowed: [{from: "00:00", to: "24:00"}]}\n',
  ),
  'warn.yaml': policy('warns', 'mode: warn\nrules:\n  - condition: {deny: true, reason: "would block"}\n'),
  'audit.yaml': policy('audits', 'mode: audit\nrules:\n  - condition: {deny: true, reason: "just counting"}\n'),
  'skip.yaml': policy('other-team', 'match: {teams: [OPS]}\nrules:\n  - condition: {deny: true, reason: never seen}\n'),
  'waived.yaml': policy('waived', 'rules:\n  - condition: {deny: true, reason: "blocked"}\n'),
  'exception.yaml':
    'kind: Exception\nname: drill\npolicy: waived\nowner: sre\nreason: game day\nexpires: "2026-02-01T00:00:00Z"\n',
};

describe('explanations: every evaluated policy with its result and why', () => {
  test.each([
    ['passes', 'pass.yaml', 'pass', 'passed: rules[0].condition, rules[1].timeWindow'],
    ['warns', 'warn.yaml', 'warn', 'would block'],
    ['audits', 'audit.yaml', 'audit', 'just counting'],
    ['other-team', 'skip.yaml', 'skipped', 'team ADM not in match.teams (OPS)'],
    [
      'waived',
      'waived.yaml',
      'skipped',
      'waived by exception "drill" (owner sre, until 2026-02-01T00:00:00.000Z: game day); would have denied: blocked',
    ],
  ])('%s (%s): %s', (name, file, result, why) => {
    const r = decideAt(files, NOW).results.find((x) => x.policy === name);
    expect(r).toMatchObject({ result, priority: 100, source: { file, line: 1, col: 1 } });
    expect(r?.reasons.join('; ')).toContain(why);
  });

  test('a denial lists the finding of each rule, located', () => {
    const d = decideAt(
      {
        'd.yaml': policy(
          'two-rules',
          'rules:\n  - condition: {deny: true, reason: first}\n  - parameters: {cpuLoad: {max: 80}}\n',
        ),
      },
      NOW,
    );
    expect(d.results[0].findings).toEqual([
      { rule: 'rules[0].condition', reason: 'first' },
      expect.objectContaining({
        rule: 'rules[1].parameters',
        step: 'com.steadybit.extension_container.stress_cpu',
        value: '100',
      }),
    ]);
  });

  test('the HTTP answer with ?explain=true carries the same Decision', async () => {
    const bundle = bundleFrom(files, new Date(NOW));
    const { app } = testApp(bundle, { clock: () => new Date(NOW), newId: () => 'd-1' });
    const res = await signedRequest(app, preflightPayload(), { query: { explain: 'true' } });
    expect(res.status).toBe(200);
    const direct = decide(bundle, preflightPayload(), {}, new Date(NOW), { decisionId: 'd-1', fullScan: true });
    expect(res.body.explanation).toEqual(JSON.parse(JSON.stringify(direct)));
    // Every policy of the bundle is listed, also those the index would not visit.
    expect(res.body.explanation.results).toHaveLength(bundle.policies.length);
    expect(res.body.message).toBe(direct.message);
  });
});
