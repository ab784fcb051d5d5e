import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { evalCommand } from '../../src/cli/commands/eval-command';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import type { PreflightPayload } from '../../src/payload/types';
import type { Decision } from '../../src/policy/core/decision';
import { FIXTURES, preflightWith } from '../helpers/fixtures';
import { NOW, loadProblems } from '../helpers/decide-harness';
import { bundleFrom } from '../helpers/bundle-from';

/**
 * Scopes on who started the run (execution.createdBy, a UserSummaryAO: the spec's own example) and on
 * the members of a Steadybit team (facts from GET /api/teams/{key}/members), and the second-person
 * rule for exceptions (ExceptionSettings.approverNotStarter). Decisions are pure: facts are given.
 */
const USER = (
  JSON.parse(readFileSync(join(FIXTURES, 'steadybit', 'user-summary-ao.json'), 'utf8')) as {
    example: { username: string; name: string; email: string };
  }
).example;
const byUser = preflightWith((p) => {
  p.execution.createdBy = { ...USER };
});
const byNobody = preflightWith((p) => {
  delete p.execution.createdBy;
});

const policy = (scope: string) =>
  `kind: Policy\nname: p\n${scope}\nrules:\n  - environments: { blocked: ["32009f6e-ff90-47a5-8daa-80f4bb7ae591"] }\nmessage: "{{reason}}"\n`;

function decideWith(files: Record<string, string>, payload: PreflightPayload, facts: Facts = {}): Decision {
  return decide(bundleFrom(files, NOW), payload, facts, NOW, { decisionId: 'd-1', fullScan: true });
}
const resultOf = (d: Decision) => d.results.find((r) => r.policy === 'p');

describe('match/exclude createdBy', () => {
  test.each([
    ['its email', `match: { createdBy: [${USER.email}] }`, 'deny'],
    ['its email in another case', `match: { createdBy: [${USER.email.toUpperCase()}] }`, 'deny'],
    ['its username (the Steadybit user id)', `match: { createdBy: ["${USER.username}"] }`, 'deny'],
    ['a glob over the email', 'match: { createdBy: ["*@steadybit.com"] }', 'deny'],
    ['someone else', 'match: { createdBy: [jane@example.com] }', 'skipped'],
    ['the display name (never compared)', `match: { createdBy: ["${USER.name}"] }`, 'skipped'],
    ['exclude: the starter', `exclude: { createdBy: [${USER.email}] }`, 'skipped'],
    ['exclude: someone else', 'exclude: { createdBy: [jane@example.com] }', 'deny'],
  ])('%s', (_name, scope, result) => {
    expect(resultOf(decideWith({ 'p.yaml': policy(scope) }, byUser))?.result).toBe(result);
  });

  test('the skip reason names the starter and the list', () => {
    expect(
      resultOf(decideWith({ 'p.yaml': policy('match: { createdBy: [jane@example.com] }') }, byUser))?.reasons,
    ).toEqual([`starter ${USER.email} not in match.createdBy (jane@example.com)`]);
  });

  test('a run that does not say who started it: unknown never narrows (match keeps, exclude does not exclude)', () => {
    expect(
      resultOf(decideWith({ 'p.yaml': policy('match: { createdBy: [jane@example.com] }') }, byNobody))?.result,
    ).toBe('deny');
    expect(
      resultOf(decideWith({ 'p.yaml': policy('exclude: { createdBy: [jane@example.com] }') }, byNobody))?.result,
    ).toBe('deny');
  });

  test('a misspelt field is refused, with the field meant', () => {
    expect(loadProblems({ 'p.yaml': policy('match: { createdby: [jane@example.com] }') }).join('\n')).toMatch(
      /createdby: .*is not a known field: did you mean "createdBy"\?/,
    );
  });
});

describe('match/exclude createdByTeams', () => {
  const members = (...people: Array<{ username: string; email?: string }>) => ({ members: people });
  const teamFacts = (teams: Facts['teams']): Facts => ({ teams });

  test('a member by username or by email (case-insensitive) is in the team', () => {
    const files = { 'p.yaml': policy('match: { createdByTeams: [SRE] }') };
    expect(resultOf(decideWith(files, byUser, teamFacts({ SRE: members({ username: USER.username }) })))?.result).toBe(
      'deny',
    );
    expect(
      resultOf(
        decideWith(
          files,
          byUser,
          teamFacts({ SRE: members({ username: 'other-id', email: USER.email.toUpperCase() }) }),
        ),
      )?.result,
    ).toBe('deny');
  });

  test('not a member: out of scope, the reason names the teams', () => {
    const d = decideWith(
      { 'p.yaml': policy('match: { createdByTeams: [SRE, OPS] }') },
      byUser,
      teamFacts({ SRE: members({ username: 'someone' }), OPS: members() }),
    );
    expect(resultOf(d)).toMatchObject({
      result: 'skipped',
      reasons: [`starter ${USER.email} not in match.createdByTeams (SRE, OPS)`],
    });
  });

  test('exclude: members of the team are let through, others denied', () => {
    const files = { 'p.yaml': policy('exclude: { createdByTeams: [SRE] }') };
    expect(resultOf(decideWith(files, byUser, teamFacts({ SRE: members({ username: USER.username }) })))?.result).toBe(
      'skipped',
    );
    expect(resultOf(decideWith(files, byUser, teamFacts({ SRE: members({ username: 'x' }) })))?.result).toBe('deny');
  });

  test('members that were not read (no Platform API): cannot decide, denied saying why', () => {
    const d = decideWith({ 'p.yaml': policy('exclude: { createdByTeams: [SRE] }') }, byUser);
    expect(d.allowed).toBe(false);
    expect(resultOf(d)?.reasons[0]).toBe(
      'cannot decide whether the run is in exclude.createdByTeams (SRE): the members of Steadybit team SRE were not read (they come from the Steadybit Platform API: set STEADYBIT_URL)',
    );
    expect(resultOf(d)?.findings?.[0]).toMatchObject({ rule: 'exclude.createdByTeams', undecidable: true });
  });

  test('members the Platform API could not give (down): cannot decide, even a policy whose rules pass', () => {
    const passing =
      'kind: Policy\nname: p\nmatch: { createdByTeams: [SRE] }\nrules:\n  - environments: { blocked: [nowhere] }\n';
    const d = decideWith(
      { 'p.yaml': passing },
      byUser,
      teamFacts({ SRE: { unknown: 'the members of Steadybit team SRE could not be read (HTTP 503)' } }),
    );
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(
      'cannot decide whether the run is in match.createdByTeams (SRE): the members of Steadybit team SRE could not be read (HTTP 503)',
    );
  });

  test('one listed team known to hold the starter is enough, another unreadable or not', () => {
    const d = decideWith(
      { 'p.yaml': policy('match: { createdByTeams: [SRE, OPS] }') },
      byUser,
      teamFacts({ SRE: { unknown: 'down' }, OPS: members({ username: USER.username }) }),
    );
    expect(resultOf(d)?.reasons).toEqual([expect.stringContaining('blocked')]);
  });

  describe('an exception scoped with createdByTeams', () => {
    const exception = (match: string) =>
      `kind: Exception\nname: sre-gameday\npolicy: p\nowner: sre@example.com\nreason: game day\nexpires: "2026-01-06T10:00:00Z"\nmatch: ${match}\n`;
    const files = (match: string) => ({ 'p.yaml': policy(''), 'e.yaml': exception(match) });

    test('waives a run its starter started as a member', () => {
      const d = decideWith(
        files('{ createdByTeams: [SRE] }'),
        byUser,
        teamFacts({ SRE: members({ username: USER.username }) }),
      );
      expect(resultOf(d)).toMatchObject({ result: 'skipped', exception: 'sre-gameday' });
    });

    test('members that cannot be read: it does not waive, and the denial says why (unknown never widens a waiver)', () => {
      const d = decideWith(files('{ createdByTeams: [SRE] }'), byUser, teamFacts({ SRE: { unknown: 'HTTP 503' } }));
      expect(resultOf(d)?.result).toBe('deny');
      expect(d.message).toContain(
        'exception "sre-gameday" does not waive this run: cannot decide whether the run is in match.createdByTeams (SRE): HTTP 503',
      );
    });

    test('an exception whose other fields do not reach the run is not named, read members or not', () => {
      const d = decideWith(
        files('{ experimentKeys: [NOPE-1], createdByTeams: [SRE] }'),
        byUser,
        teamFacts({ SRE: { unknown: 'HTTP 503' } }),
      );
      expect(resultOf(d)?.result).toBe('deny');
      expect(d.message).not.toContain('sre-gameday');
    });
  });

  test("a decision reads each team's members once, however many scopes name the team", () => {
    const files = Object.fromEntries(
      ['p', 'q', 'r'].map((name, i) => [
        `${name}.yaml`,
        policy(i === 2 ? 'exclude: { createdByTeams: [OPS, SRE] }' : 'match: { createdByTeams: [SRE] }').replace(
          'name: p',
          `name: ${name}`,
        ),
      ]),
    );
    let scans = 0;
    const counted = (people: Array<{ username: string }>) => ({
      get members() {
        scans++;
        return people;
      },
    });
    const d = decideWith(files, byUser, teamFacts({ SRE: counted([{ username: USER.username }]), OPS: counted([]) }));
    expect(d.results.map((r) => [r.policy, r.result])).toEqual([
      ['p', 'deny'],
      ['q', 'deny'],
      ['r', 'skipped'],
    ]);
    // SRE once for all three scopes, OPS once (the exclude asks it first).
    expect(scans).toBe(2);
  });

  test('the bundle asks for each team once, as a need', () => {
    const bundle = bundleFrom(
      {
        'p.yaml': policy('match: { createdByTeams: [SRE] }'),
        'q.yaml': policy('exclude: { createdByTeams: [SRE, OPS] }').replace('name: p', 'name: q'),
      },
      NOW,
    );
    expect(bundle.needs.filter((n) => n.kind === 'team-members')).toEqual([
      { kind: 'team-members', team: 'SRE' },
      { kind: 'team-members', team: 'OPS' },
    ]);
  });
});

describe('ExceptionSettings.approverNotStarter: the approver is not the person who started the run', () => {
  const settings = 'kind: ExceptionSettings\nmaxDuration: 7d\napproverNotStarter: true\n';
  const exception = (approvedBy: string) =>
    `kind: Exception\nname: e\npolicy: p\nowner: sre@example.com\napprovedBy: "${approvedBy}"\nreason: game day\nexpires: "2026-01-06T10:00:00Z"\nmatch: { experimentKeys: [ADM-1] }\n`;
  const files = (approvedBy: string, withSettings = settings) => ({
    'p.yaml': policy(''),
    's.yaml': withSettings,
    'e.yaml': exception(approvedBy),
  });

  test('approved by someone else: waived', () => {
    expect(resultOf(decideWith(files('joe@example.com'), byUser))).toMatchObject({ result: 'skipped', exception: 'e' });
  });

  test.each([
    ['the same email', USER.email],
    ['the same email in another case', USER.email.toUpperCase()],
    ['the same username', USER.username],
  ])('approved by the starter (%s): not waived, and the denial says so', (_name, approver) => {
    const d = decideWith(files(approver), byUser);
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(
      `exception "e" was approved by ${approver}, who started this run, and the set requires a second person (ExceptionSettings.approverNotStarter), so it does not waive this policy; ask someone else to approve it`,
    );
  });

  test('approved by sam, started by ſam (long s): the same person, as createdBy globs compare names', () => {
    const bySam = preflightWith((p) => {
      p.execution.createdBy = { username: 'ſam', name: 'Sam' };
    });
    const d = decideWith(files('sam'), bySam);
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('exception "e" was approved by sam, who started this run');
    const scoped = decideWith({ 'p.yaml': policy('match: { createdBy: [sam] }') }, bySam);
    expect(resultOf(scoped)?.result).not.toBe('skipped');
  });

  test('an approvedBy written with spaces around it is named without them', () => {
    const d = decideWith(files(`  ${USER.email}  `), byUser);
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(`exception "e" was approved by ${USER.email}, who started this run,`);
    expect(decideWith(files('  joe@example.com '), byNobody).message).toContain(
      'cannot tell whether joe@example.com, who approved exception "e", started this run',
    );
  });

  test('a blank approvedBy is refused at load', () => {
    expect(loadProblems(files('   '), NOW)).toEqual([
      'e.yaml:5:13 approvedBy: approvedBy is blank: name one Steadybit username or email',
    ]);
  });

  test('a run that does not say who started it: the exception does not waive (cannot tell)', () => {
    const d = decideWith(files('joe@example.com'), byNobody);
    expect(d.allowed).toBe(false);
    expect(d.message).toContain('cannot tell whether joe@example.com, who approved exception "e", started this run');
  });

  test('an email approver and a starter known by username only: cannot tell, not waived', () => {
    const d = decideWith(
      files('joe@example.com'),
      preflightWith((p) => {
        p.execution.createdBy = { username: USER.username };
      }),
    );
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(`execution.createdBy names only ${USER.username}`);
  });

  test('without the setting the approver may be the starter (as before)', () => {
    const plain = 'kind: ExceptionSettings\nmaxDuration: 7d\n';
    expect(resultOf(decideWith(files(USER.email, plain), byUser))).toMatchObject({ result: 'skipped', exception: 'e' });
  });
});

describe('eval --teams: the members as facts, as the service reads them from the Platform API', () => {
  const dir = mkdtempSync(join(tmpdir(), 'eval-teams-'));
  writeFileSync(join(dir, 'p.yaml'), policy('exclude: { createdByTeams: [SRE] }'));
  writeFileSync(join(dir, 'run.json'), JSON.stringify(byUser));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  let warned = '';
  const evaluate = async (teams?: unknown) => {
    let file: string | undefined;
    if (teams !== undefined) writeFileSync((file = join(dir, 'teams.json')), JSON.stringify(teams));
    let out = '';
    warned = '';
    await evalCommand(
      { payload: join(dir, 'run.json'), dir, teams: file, format: 'json', now: NOW.toISOString() },
      {},
      (s) => {
        out += s;
      },
      (s) => {
        warned += s;
      },
    );
    return JSON.parse(out) as { allowed: boolean; body: { message: string } };
  };

  test('a member of the excluded team is let through; without the file the policy cannot decide', async () => {
    expect((await evaluate({ SRE: { members: [{ username: USER.username }] } })).allowed).toBe(true);
    expect((await evaluate()).body.message).toContain(
      'cannot decide whether the run is in exclude.createdByTeams (SRE)',
    );
  });

  test('a team the file lists and no policy reads is warned on stderr, with the one it likely meant', async () => {
    const answer = await evaluate({ SER: { members: [{ username: USER.username }] }, OPS: { members: [] } });
    expect(answer.body.message).toContain('cannot decide whether the run is in exclude.createdByTeams (SRE)');
    expect(warned.split('\n')).toEqual([
      `warning: ${join(dir, 'teams.json')} lists team "SER", whose members no policy reads (createdByTeams, approvers of exceptions to an owning team's policy): did you mean "SRE"? (the members of "SRE" are not given, so the rules that read them cannot decide)`,
      `warning: ${join(dir, 'teams.json')} lists team "OPS", whose members no policy reads (createdByTeams, approvers of exceptions to an owning team's policy)`,
      '',
    ]);
    await evaluate({ SRE: { members: [] } });
    expect(warned).toBe('');
  });

  test('a malformed file is refused naming what to write', async () => {
    await expect(evaluate({ SRE: { members: [{ email: 'x@example.com' }] } })).rejects.toThrow(
      /teams file .* is not valid team members/,
    );
  });
});
