import { decide } from '../../src/policy/engine/decide';
import { validatePreflightPayload } from '../../src/payload/validate-payload';
import { readTeamFacts } from '../../src/policy/facts/read-facts';
import { diffSets, proveProperty, type Witness } from '../../src/prove/analysis';
import { parseProperties } from '../../src/prove/property-file';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * Who started the run is inside the analysis: `createdBy` in a scope (globs over
 * execution.createdBy.username or .email) and `createdByTeams` (the starter among a team's members,
 * a fact the witness gives): pairs of sets whose differences in it are known by construction,
 * properties about it proven or broken, and every witness a payload the schema admits.
 */
const CONTRACTORS = (glob: string, extra = '') => `kind: Policy
name: contractors-not-in-production
match: { createdBy: ["${glob}"] }
${extra}rules:
  - environments: { blocked: [production] }
`;
const starter = (w: Witness) => {
  const by = w.payload.execution.createdBy;
  return [by?.username, by?.email].filter((v): v is string => typeof v === 'string' && v !== '');
};
const environments = (w: Witness) =>
  [w.payload.execution.environment, w.payload.execution.overrides?.environment].map((e) => e?.toLowerCase());

describe('prove and diff: who started the run', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const diff = (base: string, proposed: string) =>
    diffSets(setOf(dirs.write({ 'p.yaml': base })), setOf(dirs.write({ 'p.yaml': proposed })), NOW);
  /** Every witness: admitted by the payload schema, and decided by the real engine as it says. */
  const checked = (ws: Witness[], base: string, proposed: string) => {
    const [b, p] = [base, proposed].map((t) => setOf(dirs.write({ 'p.yaml': t })).bundle);
    for (const w of ws) {
      expect(validatePreflightPayload(w.payload)).toMatchObject({ ok: true });
      const facts = { ...w.facts, signals: {} };
      const now = new Date(w.now);
      expect([
        decide(b, w.payload, facts, now, { decisionId: 't' }).allowed,
        decide(p, w.payload, facts, now, { decisionId: 't' }).allowed,
      ]).toEqual(w.kind === 'newly-allowed' ? [false, true] : [true, false]);
    }
  };

  it('a glob misspelt: the contractors are newly allowed in production, the misspelt domain newly denied', () => {
    const base = CONTRACTORS('*@contractors.example.com');
    const proposed = CONTRACTORS('*@contractor.example.com');
    const r = diff(base, proposed);
    expect(r.unknown).toEqual([]);
    const allowed = r.witnesses.filter((w) => w.kind === 'newly-allowed');
    const denied = r.witnesses.filter((w) => w.kind === 'newly-denied');
    expect([allowed.length, denied.length]).toEqual([1, 1]);
    expect(starter(allowed[0]).some((s) => s.endsWith('@contractors.example.com'))).toBe(true);
    expect(starter(denied[0]).some((s) => s.endsWith('@contractor.example.com'))).toBe(true);
    for (const w of r.witnesses) expect(environments(w)).toContain('production');
    checked(r.witnesses, base, proposed);
  });

  it('a starter excluded: runs that starter starts in production are newly allowed, nothing newly denied', () => {
    const base = CONTRACTORS('*@example.com');
    const proposed = CONTRACTORS('*@example.com', 'exclude: { createdBy: [release-bot@example.com] }\n');
    const r = diff(base, proposed);
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(starter(r.witnesses[0])).toContain('release-bot@example.com');
    checked(r.witnesses, base, proposed);
  });

  it('the same scope written in another case: no run would be decided differently', () => {
    const r = diff(CONTRACTORS('*@contractors.example.com'), CONTRACTORS('*@CONTRACTORS.example.com'));
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  const property = (scope: string) =>
    parseProperties(
      'x.property.yaml',
      `kind: PolicyProperty\nname: no-contractors-in-production\nnever:\n  match: { environments: [production], ${scope} }\n`,
      {},
      NOW,
    ).properties[0];

  it('prove: "no contractor runs in production" is proven by the block, broken (with a witness) without it', () => {
    const prop = property('createdBy: ["*@contractors.example.com"]');
    const kept = setOf(dirs.write({ 'p.yaml': CONTRACTORS('*@contractors.example.com') }));
    expect(proveProperty(kept, prop, NOW)).toMatchObject({ status: 'proven' });
    const loosened = setOf(dirs.write({ 'p.yaml': CONTRACTORS('*@contractor.example.com') }));
    const broken = proveProperty(loosened, prop, NOW);
    expect(broken.status).toBe('counterexample');
    const w = broken.witness as Witness;
    expect(validatePreflightPayload(w.payload)).toMatchObject({ ok: true });
    expect(starter(w).some((s) => s.endsWith('@contractors.example.com'))).toBe(true);
    expect(environments(w)).toContain('production');
    expect(
      decide(loosened.bundle, w.payload, { ...w.facts, signals: {} }, new Date(w.now), { decisionId: 't' }).allowed,
    ).toBe(true);
  });

  const TEAM = (env: string, teams = 'contractors') =>
    `kind: Policy\nname: contractors-team\nmatch: { createdByTeams: [${teams}] }\nrules:\n  - environments: { blocked: [${env}] }\n`;
  const member = (w: Witness, team: string) => {
    const read = w.facts.teams[team];
    return (
      read !== undefined &&
      'members' in read &&
      read.members.some((m) => starter(w).includes(m.username) || starter(w).includes(m.email ?? ''))
    );
  };

  it('createdByTeams (members read as facts): a block moved from production to staging, each witness with team facts eval --teams reads', () => {
    const base = TEAM('production');
    const proposed = TEAM('staging');
    const r = diff(base, proposed);
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind).sort()).toEqual(['newly-allowed', 'newly-denied']);
    for (const w of r.witnesses) {
      // A starter the team's members cannot be compared with never narrows the policy (it applies).
      expect(readTeamFacts(w.facts.teams)).toMatchObject({ ok: true });
      expect(environments(w)).toContain(w.kind === 'newly-allowed' ? 'production' : 'staging');
    }
    checked(r.witnesses, base, proposed);
  });

  it('createdByTeams widened by a team: the answer moves with what the Platform API says of each team', () => {
    const base = TEAM('production');
    const proposed = TEAM('production', 'contractors, interns');
    const r = diff(base, proposed);
    expect(r.unknown).toEqual([]);
    const allowed = r.witnesses.find((w) => w.kind === 'newly-allowed') as Witness;
    const denied = r.witnesses.find((w) => w.kind === 'newly-denied') as Witness;
    // Contractors' members not read: the base cannot decide its scope (denied, fail closed); the
    // starter among the interns puts the run in the proposed scope, outside production: allowed.
    expect(allowed.facts.teams.contractors).toBeUndefined();
    expect(member(allowed, 'interns')).toBe(true);
    expect(environments(allowed)).not.toContain('production');
    // The starter not among the contractors: out of the base scope (allowed); the interns not read:
    // the proposed scope cannot be decided (denied).
    expect(denied.facts.teams.contractors).toMatchObject({ members: expect.any(Array) });
    expect(member(denied, 'contractors')).toBe(false);
    expect(denied.facts.teams.interns).toBeUndefined();
    expect(r.witnesses).toHaveLength(2);
    checked(r.witnesses, base, proposed);
  });

  it('createdByTeams in a property: "no contractor team member runs in production" proven, then broken with the members in the witness', () => {
    const prop = property('createdByTeams: [contractors]');
    const kept = setOf(dirs.write({ 'p.yaml': TEAM('production') }));
    expect(proveProperty(kept, prop, NOW)).toMatchObject({ status: 'proven' });
    const moved = setOf(dirs.write({ 'p.yaml': TEAM('staging') }));
    const broken = proveProperty(moved, prop, NOW);
    expect(broken.status).toBe('counterexample');
    const w = broken.witness as Witness;
    expect(
      decide(moved.bundle, w.payload, { ...w.facts, signals: {} }, new Date(w.now), { decisionId: 't' }).allowed,
    ).toBe(true);
  });
});
