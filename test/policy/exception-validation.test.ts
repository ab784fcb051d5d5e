import { loadProblems, NOW } from '../helpers/decide-harness';

/**
 * What validate (and every load) refuses in an Exception, and what it warns about: the clock is
 * injected (NOW, Monday 2026-01-05 10:00 UTC), so expiry is judged without waiting.
 */
const POLICY = 'kind: Policy\nname: no-attacks\nrules:\n  - environments: { blocked: [production] }\n';
const SETTINGS = 'kind: ExceptionSettings\nmaxDuration: 7d\n';

function exception(fields: Record<string, string | undefined>): string {
  const all: Record<string, string | undefined> = {
    kind: 'Exception',
    name: 'adm-gameday',
    policy: 'no-attacks',
    owner: 'sre@example.com',
    reason: 'game day, CHG-1',
    expires: '"2026-01-07T10:00:00Z"',
    ...fields,
  };
  if (!('match' in fields)) all.match = '{ experimentKeys: [ADM-1] }';
  return `${Object.entries(all)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n')}\n`;
}

const load = (fields: Record<string, string | undefined>, settings = SETTINGS, now = NOW) =>
  loadProblems({ 'p.yaml': POLICY, 's.yaml': settings, 'e.yaml': exception(fields) }, now);

describe('validate refuses an exception', () => {
  test.each([
    ['without a reason', { reason: undefined }, /^e\.yaml:1:1 reason is required: say why the policy may be waived/],
    [
      'with a blank reason',
      { reason: '"   "' },
      /^e\.yaml:5:9 reason: reason is blank: say why the policy may be waived/,
    ],
    [
      'without an expiry',
      { expires: undefined },
      /^e\.yaml:1:1 expires is required: an exception stops by itself: an RFC 3339 time/,
    ],
    ['with an expiry that is not a time', { expires: 'soon' }, /^e\.yaml:6:10 expires: must match format "date-time"/],
    [
      'past the declared maximum',
      { expires: '"2026-01-12T10:00:01Z"' },
      /^e\.yaml:6:10 expires: exception "adm-gameday" runs until 2026-01-12T10:00:01Z \(7 days from now\), 1s past the maximum of 7d the set declares \(ExceptionSettings at s\.yaml:1\); expire it by 2026-01-12T10:00:00Z$/,
    ],
    [
      'naming a policy that does not exist',
      { policy: 'no-atacks' },
      /^e\.yaml:3:9 policy: exception "adm-gameday" waives policy "no-atacks", which does not exist$/,
    ],
    ['with maxUses below 1', { maxUses: '0' }, /^e\.yaml:7:10 maxUses: must be >= 1$/],
  ])('%s', (_name, fields, line) => {
    const problems = load(fields);
    expect(problems).toEqual([expect.stringMatching(line)]);
  });

  test('twice ExceptionSettings is an error naming the first', () => {
    const problems = loadProblems({ 'p.yaml': POLICY, 's.yaml': SETTINGS, 't.yaml': SETTINGS }, NOW);
    expect(problems).toEqual(['t.yaml:1:1 ExceptionSettings given twice (first at s.yaml:1); keep one']);
  });

  test('a time it tells to expire by has no milliseconds, rounded down to stay within the maximum', () => {
    const settings = 'kind: ExceptionSettings\nmaxDuration: 1d1s433ms\n';
    expect(load({ expires: '"2026-01-12T10:00:00Z"' }, settings)).toEqual([
      expect.stringMatching(/; expire it by 2026-01-06T10:00:01Z$/),
    ]);
  });

  test('a maximum of 0 is refused', () => {
    expect(loadProblems({ 'p.yaml': POLICY, 's.yaml': 'kind: ExceptionSettings\nmaxDuration: 0d\n' }, NOW)).toEqual([
      's.yaml:2:14 maxDuration: maxDuration must be longer than 0 (e.g. 7d)',
    ]);
  });

  test('one mistake, one line: a misspelt maxDuration is its did-you-mean only, a malformed one its pattern only', () => {
    expect(loadProblems({ 'p.yaml': POLICY, 's.yaml': 'kind: ExceptionSettings\nmaxDurration: 7d\n' }, NOW)).toEqual([
      's.yaml:2:1 maxDurration: maxDurration is not a known field: did you mean "maxDuration"? (known fields: kind, maxDuration, approverNotStarter)',
    ]);
    expect(loadProblems({ 'p.yaml': POLICY, 's.yaml': 'kind: ExceptionSettings\nmaxDuration: abc\n' }, NOW)).toEqual([
      expect.stringMatching(/^s\.yaml:2:14 maxDuration: must match pattern /),
    ]);
    expect(load({ reason: undefined, reasn: '"game day"' })).toEqual([
      expect.stringMatching(/^e\.yaml:\d+:1 reasn: reasn is not a known field: did you mean "reason"\?/),
    ]);
  });
});

describe('validate warns', () => {
  test('not about one with maxUses that expires within a day: an approval meant to run out (a minted 2h, 1 run)', () => {
    expect(load({ expires: '"2026-01-05T12:00:00Z"', maxUses: '1' })).toEqual([]);
  });

  test('about an exception without match: it waives every run of its policy', () => {
    expect(load({ match: undefined })).toEqual([
      'e.yaml:2:7 warning: name: exception "adm-gameday" has no match, so it waives every run policy "no-attacks" applies to until it expires; scope it (match: experimentKeys, environments, teams, createdBy, ...)',
    ]);
  });

  test('about an exception that expires within a day, with the time left', () => {
    expect(load({ expires: '"2026-01-06T09:00:00Z"' })).toEqual([
      'e.yaml:6:10 warning: expires: exception "adm-gameday" expires within a day (at 2026-01-06T09:00:00Z, in 23h); mint a new one if it is still needed',
    ]);
  });

  test('not about one that expires in more than a day', () => {
    expect(load({ expires: '"2026-01-06T10:00:01Z"' })).toEqual([]);
  });

  test('about an expired one (the clock moved on: the same set, later)', () => {
    expect(load({}, SETTINGS, new Date('2026-01-08T00:00:00Z'))).toEqual([
      'e.yaml:6:10 warning: expires: exception "adm-gameday" expired at 2026-01-07T10:00:00Z and no longer applies; remove it',
    ]);
  });

  test('nothing about a long exception in a set that declares no maximum (sets written before ExceptionSettings keep loading)', () => {
    expect(loadProblems({ 'p.yaml': POLICY, 'e.yaml': exception({ expires: '"2026-03-01T00:00:00Z"' }) }, NOW)).toEqual(
      [],
    );
  });

  test('an exception loaded within its maximum stays valid as time passes (the maximum counts from now)', () => {
    const fields = { expires: '"2026-01-12T10:00:00Z"' };
    expect(load(fields)).toEqual([]);
    expect(load(fields, SETTINGS, new Date('2026-01-10T10:00:00Z'))).toEqual([]);
  });
});

describe('ExceptionSettings.approverNotStarter', () => {
  const SECOND_PERSON = 'kind: ExceptionSettings\nmaxDuration: 7d\napproverNotStarter: true\n';

  test('refuses an exception without approvedBy, naming the setting', () => {
    expect(load({}, SECOND_PERSON)).toEqual([
      expect.stringMatching(
        /^e\.yaml:2:7 name: exception "adm-gameday" has no approvedBy, but the set requires the approver not to be the person who started the run \(ExceptionSettings\.approverNotStarter at s\.yaml:1\); add approvedBy/,
      ),
    ]);
  });

  test('accepts one with approvedBy', () => {
    expect(load({ approvedBy: 'joe@example.com' }, SECOND_PERSON)).toEqual([]);
  });

  test.each(['"bob@example.com, jane@example.com"', '"bob@example.com;jane@example.com"', '"Jane Doe"'])(
    'refuses approvedBy %s: one person, or the starter could hide in a list (review finding)',
    (approvedBy) => {
      expect(load({ approvedBy }, SECOND_PERSON)).toEqual([
        expect.stringMatching(
          /^e\.yaml:\d+:\d+ approvedBy: exception "adm-gameday" has approvedBy ".+", which is not one Steadybit username or email .*approverNotStarter compares it/,
        ),
      ]);
    },
  );

  test('a set without the setting gets a warning for such an approvedBy, not an error', () => {
    const problems = load({ approvedBy: '"bob@example.com, jane@example.com"' });
    expect(problems).toEqual([expect.stringMatching(/approvedBy: .*is not one Steadybit username or email/)]);
    expect(problems[0]).not.toMatch(/approverNotStarter/);
  });

  test('a typo in the setting is refused with the key named', () => {
    const problems = load(
      { approvedBy: 'joe@example.com' },
      SECOND_PERSON.replace('approverNotStarter', 'approverNotStarted'),
    );
    expect(problems.join('\n')).toMatch(/approverNotStarted/);
    expect(problems.join('\n')).toMatch(/approverNotStarter/);
  });
});

test('requestedBy, approvedBy and maxUses are accepted', () => {
  expect(load({ requestedBy: 'jane@example.com', approvedBy: 'joe@example.com', maxUses: '1' })).toEqual([]);
});
