import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createPlatformClient } from '../../src/platform/platform-client';
import { TeamDirectory } from '../../src/platform/team-directory';
import { teamFactSource } from '../../src/platform/team-fact-source';
import { decide } from '../../src/policy/engine/decide';
import { factGatherer } from '../../src/policy/engine/fact-gatherer';
import { member, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { FIXTURES, preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

/**
 * The members of Steadybit teams (GET /api/teams/{key}/members) as createdByTeams scopes read them:
 * against the fake Platform API (its answers checked against TeamMembersAO), with an injected clock.
 */
const USER = (
  JSON.parse(readFileSync(join(FIXTURES, 'steadybit', 'user-summary-ao.json'), 'utf8')) as {
    example: { username: string; email: string };
  }
).example;

let fake: FakeSteadybit;
let nowMs: number;
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.teamMembers = { SRE: [member(USER.username, USER.email, 'OWNER'), member('google-oauth2|9314', null)] };
  nowMs = Date.parse('2026-03-02T10:00:00Z');
});

const HOUR = 3600_000;
function directory() {
  const config = fakePlatformConfig(fake);
  const client = createPlatformClient(config, { random: () => 0, now: () => nowMs, sleep: async () => undefined });
  return new TeamDirectory(client, { refreshMs: 300_000, maxAgeMs: HOUR, waitMs: 2000, minGapMs: 10_000 }, () => nowMs);
}

test('the members of a team: username and email as MemberAO has them, read once and cached', async () => {
  const dir = directory();
  expect(await dir.resolve(['SRE'])).toEqual({
    SRE: { members: [{ username: USER.username, email: USER.email }, { username: 'google-oauth2|9314' }] },
  });
  nowMs += 60_000;
  await Promise.all(Array.from({ length: 10 }, () => dir.resolve(['SRE'])));
  expect(fake.calls('/api/teams/SRE/members')).toHaveLength(1);
});

test('many preflights at once for a team not read yet: one call', async () => {
  const dir = directory();
  fake.faults.push({ path: '/api/teams/SRE/members', delayMs: 100 });
  const answers = await Promise.all(Array.from({ length: 10 }, () => dir.resolve(['SRE'])));
  expect(answers.every((a) => 'members' in a.SRE)).toBe(true);
  expect(fake.calls('/api/teams/SRE/members')).toHaveLength(1);
});

test('older than the refresh interval: read again; the API down: the cached list serves up to the maximum age, then unknown', async () => {
  const dir = directory();
  await dir.resolve(['SRE']);
  nowMs += 10 * 60_000;
  fake.teamMembers.SRE.push(member('new-user', 'new@example.com'));
  await dir.resolve(['SRE']);
  await dir.refresh('SRE'); // joins the read the stale list started (answered from cache meanwhile)
  expect(fake.calls('/api/teams/SRE/members')).toHaveLength(2);
  fake.down = true;
  nowMs += 30 * 60_000;
  const cached = await dir.resolve(['SRE']);
  expect('members' in cached.SRE && cached.SRE.members).toHaveLength(3);
  nowMs += 2 * HOUR;
  const stale = await dir.resolve(['SRE']);
  expect(stale.SRE).toEqual({
    unknown: expect.stringMatching(
      /^the members of Steadybit team SRE were last read \d+ s ago, longer than STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS \(3600 s\); last error: .*503/,
    ),
  });
});

test('the API down from the start, or a team Steadybit does not know (404): unknown, saying why', async () => {
  fake.down = true;
  const down = await directory().resolve(['SRE']);
  expect(down.SRE).toEqual({
    unknown: expect.stringMatching(
      /^the members of Steadybit team SRE could not be read from the Steadybit Platform API \(.*503/,
    ),
  });
  fake.down = false;
  const missing = await directory().resolve(['NOPE']);
  expect(missing.NOPE).toEqual({ unknown: expect.stringContaining('404') });
});

describe('a decision with the team source (the service path: gather, then decide)', () => {
  const files = {
    'p.yaml':
      'kind: Policy\nname: no-prod-for-outsiders\nexclude: { createdByTeams: [SRE] }\nrules:\n  - environments: { blocked: ["32009f6e-ff90-47a5-8daa-80f4bb7ae591"] }\n',
  };
  const now = new Date('2026-03-02T10:00:00Z');
  const run = (createdBy: { username: string; email?: string }) =>
    preflightWith((p) => {
      p.execution.createdBy = createdBy;
    });
  async function decideWith(dir: TeamDirectory, payload: ReturnType<typeof run>) {
    const bundle = bundleFrom(files, now);
    const gathered = await factGatherer([teamFactSource(dir)])(bundle, payload, now);
    if (!gathered.ok) throw new Error('unavailable');
    return decide(bundle, payload, gathered.facts, now, { decisionId: 'd-1' });
  }

  test('a member of SRE is let through, anyone else denied', async () => {
    const dir = directory();
    expect((await decideWith(dir, run({ username: 'x', email: USER.email.toUpperCase() }))).allowed).toBe(true);
    expect((await decideWith(dir, run({ username: 'someone-else' }))).allowed).toBe(false);
    expect(fake.calls('/api/teams/SRE/members')).toHaveLength(1);
  });

  test('the API down: cannot decide, the run is denied saying why', async () => {
    fake.down = true;
    const d = await decideWith(directory(), run({ username: USER.username }));
    expect(d.allowed).toBe(false);
    expect(d.message).toMatch(
      /cannot decide whether the run is in exclude\.createdByTeams \(SRE\): the members of Steadybit team SRE could not be read/,
    );
  });
});
