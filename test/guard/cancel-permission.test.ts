import { CancelPermission, PERMISSION_UNKNOWN } from '../../src/guard/cancel-permission';

const AT = new Date('2026-01-05T16:00:30Z');

describe('what the cancel answers tell of the token', () => {
  test('nothing before the first answer', () => {
    expect(new CancelPermission().status()).toEqual({ canStop: 'unknown', message: PERMISSION_UNKNOWN });
  });

  test('a refusal is kept per team and said once; only an answer for that team ends it', () => {
    const p = new CancelPermission();
    expect(p.refused('ADM', '41', 'HTTP 403', AT)).toBe(true);
    expect(p.refused('ADM', '42', 'HTTP 403', AT)).toBe(false);
    expect(p.refused(undefined, '43', 'HTTP 401', AT)).toBe(true);
    expect(p.allowed('DEV')).toBe(false);
    const refused = p.status();
    expect(refused).toMatchObject({ canStop: false, refusedTeams: ['ADM', ''] });
    expect(refused.message).toBe(
      'the token may not cancel runs of team ADM: the Platform API refused to cancel run 42 at 2026-01-05T16:00:30.000Z (HTTP 403); runs without a team key: the Platform API refused to cancel run 43 at 2026-01-05T16:00:30.000Z (HTTP 401). A team token of the run\'s team or an admin token may; canStop is true again once a cancel of that team\'s runs succeeds (docs/guard.md, "The token")',
    );
    expect(p.allowed('ADM')).toBe(true);
    expect(p.allowed(undefined)).toBe(true);
    expect(p.status()).toEqual({ canStop: true });
  });
});
