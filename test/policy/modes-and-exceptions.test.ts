import { decideAt, loadProblems } from '../helpers/decide-harness';

const NOW = '2026-01-05T10:00:00Z';
const denying = (mode: string, name = 'no-attacks') => `
kind: Policy
name: ${name}
mode: ${mode}
rules:
  - condition: {deny: {in: [ATTACK, {var: steps.actionKinds}]}, reason: "attacks are not allowed"}
message: "{{reason}} (experiment {{experimentKey}})"
`;
const exception = (expires: string, match = '{teams: [ADM]}') => `
kind: Exception
name: adm-gameday
policy: no-attacks
owner: sre@example.com
reason: game day
expires: "${expires}"
match: ${match}
`;

describe('modes: enforce denies, warn allows and says what it would deny, audit only records', () => {
  test.each([
    [
      'enforce',
      false,
      'deny',
      /^Denied by 1 policy: \[no-attacks\] attacks are not allowed \(experiment ADM-1\) \(decision d-1, policy revision \w+\)$/,
    ],
    [
      'warn',
      true,
      'warn',
      /^Allowed with warnings: \[no-attacks\] would deny: attacks are not allowed \(experiment ADM-1\)\. \(decision d-1/,
    ],
    ['audit', true, 'audit', /^Allowed: 1 of 1 policy applied, none denied\. \(decision d-1/],
  ])('%s', (mode, allowed, result, message) => {
    const d = decideAt({ 'p.yaml': denying(mode) }, NOW);
    expect(d.allowed).toBe(allowed);
    expect(d.results[0]).toMatchObject({ result, mode, reasons: ['attacks are not allowed'] });
    expect(d.message).toMatch(message);
  });

  test('an audit finding never reaches the message, but is in the decision', () => {
    const d = decideAt({ 'p.yaml': denying('audit') }, NOW);
    expect(d.message).not.toContain('attacks are not allowed');
    expect(d.results[0].findings).toEqual([{ rule: 'rules[0].condition', reason: 'attacks are not allowed' }]);
  });
});

describe('exceptions: a time-limited waiver of a named policy', () => {
  const expires = '2026-01-05T12:00:00Z';
  test.each([
    ['before expiry the waiver applies', NOW, '{teams: [ADM]}', true],
    ['a minute before expiry it still applies', '2026-01-05T11:59:00Z', '{teams: [ADM]}', true],
    ['at expiry it stops applying by itself', expires, '{teams: [ADM]}', false],
    ['after expiry the policy denies again', '2026-01-06T10:00:00Z', '{teams: [ADM]}', false],
    ['outside its scope it never applies', NOW, '{teams: [OPS]}', false],
    ['a step scope that matches a step applies', NOW, '{actionIds: ["*stress_cpu"]}', true],
    ['a step scope that matches no step does not', NOW, '{actionIds: ["*shutdown*"]}', false],
  ])('%s', (_name, now, match, allowed) => {
    const d = decideAt({ 'p.yaml': denying('enforce'), 'e.yaml': exception(expires, match) }, now);
    expect(d.allowed).toBe(allowed);
    if (allowed) {
      expect(d.results[0]).toMatchObject({ result: 'skipped', exception: 'adm-gameday' });
      expect(d.results[0].reasons[0]).toMatch(
        /^waived by exception "adm-gameday" \(owner sre@example.com, until 2026-01-05T12:00:00.000Z: game day\); would have denied: attacks are not allowed/,
      );
    }
  });

  test('an exception waives only the policy it names', () => {
    const d = decideAt(
      { 'p.yaml': denying('enforce'), 'q.yaml': denying('enforce', 'no-attacks-either'), 'e.yaml': exception(expires) },
      NOW,
    );
    expect(d.allowed).toBe(false);
    expect(d.results.map((r) => [r.policy, r.result, r.exception])).toEqual([
      ['no-attacks', 'skipped', 'adm-gameday'],
      ['no-attacks-either', 'deny', undefined],
    ]);
  });

  test('a live and an expired exception of one policy: the live one waives, the expired one is not named', () => {
    const old = exception('2026-01-01T00:00:00Z').replace('name: adm-gameday', 'name: last-gameday');
    const d = decideAt({ 'p.yaml': denying('enforce'), 'e.yaml': exception(expires), 'old.yaml': old }, NOW);
    expect(d.results[0]).toMatchObject({ result: 'skipped', exception: 'adm-gameday' });
    expect(d.results[0].reasons.join(' ')).not.toContain('last-gameday');
  });

  test('the decision after expiry names the expired exception', () => {
    const d = decideAt({ 'p.yaml': denying('enforce'), 'e.yaml': exception(expires) }, '2026-01-06T10:00:00Z');
    expect(d.results[0].reasons).toContain(
      'exception "adm-gameday" expired at 2026-01-05T12:00:00.000Z and no longer waives this policy',
    );
  });

  test('loading after expiry warns; within a day of it too; loading earlier does not', () => {
    const files = { 'p.yaml': denying('enforce'), 'e.yaml': exception(expires) };
    expect(loadProblems(files, new Date('2026-01-04T10:00:00Z'))).toEqual([]);
    expect(loadProblems(files, new Date(NOW))).toEqual([
      'e.yaml:7:10 warning: expires: exception "adm-gameday" expires within a day (at 2026-01-05T12:00:00Z, in 2h); mint a new one if it is still needed',
    ]);
    expect(loadProblems(files, new Date('2026-01-06T00:00:00Z'))).toEqual([
      expect.stringMatching(
        /^e\.yaml:7:10 warning: expires: exception "adm-gameday" expired at 2026-01-05T12:00:00Z and no longer applies; remove it$/,
      ),
    ]);
  });

  test.each([
    [
      'a waiver of a policy that does not exist',
      exception(expires).replace('policy: no-attacks', 'policy: no-such-policy'),
      'waives policy "no-such-policy", which does not exist',
    ],
    ['an expiry that is not a time', exception('next friday'), 'e.yaml:7:10 expires: must match format "date-time"'],
    ['a waiver without an owner', exception(expires).replace('owner: sre@example.com\n', ''), 'owner is required'],
  ])('rejects %s at load time', (_name, text, expected) => {
    expect(loadProblems({ 'p.yaml': denying('enforce'), 'e.yaml': text }).join('\n')).toContain(expected);
  });
});
