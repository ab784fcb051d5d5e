import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { Witness } from '../../src/prove/analysis';

import { generatedSize } from '../helpers/test-lane';
import { diffPairs, evalWitness, expectSampledKinds, setDirs, setOf, proveDir } from './prove-sets';

/**
 * diff over ExceptionSettings.approverNotStarter: an exception does not waive a run its approver
 * started (username or email, ignoring case). The starter is split by each exception's approvedBy
 * beside the scopes' createdBy globs; each witness is decided by eval.
 */
const policy = `kind: Policy
name: no-production
rules:
  - environments: { blocked: [production] }
`;
const settings = (secondPerson: boolean) =>
  `kind: ExceptionSettings\nmaxDuration: 7d\n${secondPerson ? 'approverNotStarter: true\n' : ''}`;
const exception = (approvedBy: string) => `kind: Exception
name: gameday
policy: no-production
owner: sre@example.com
approvedBy: "${approvedBy}"
reason: gameday CHG-7
expires: "2026-03-05T00:00:00Z"
match: { teams: [SRE] }
`;
const files = (approvedBy: string, secondPerson: boolean) => ({
  'p.yaml': policy,
  's.yaml': settings(secondPerson),
  'e.yaml': exception(approvedBy),
});
const starterOf = (w: Witness) => [w.payload.execution.createdBy?.username, w.payload.execution.createdBy?.email];

describe('diff over the second-person rule for exceptions', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);

  it('the rule turned off: newly allowed, a run its approver started or one that names no starter', async () => {
    const { b, p, r } = pair(files('alice@example.com', true), files('alice@example.com', false));
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    expect(w.base?.message).toMatch(/alice@example.com, who (approved exception "gameday", )?started this run/);
    await roundTrip(b, p, w);
  });

  it('the rule turned on: newly denied, a run its approver started or one that names no starter', async () => {
    const { b, p, r } = pair(files('alice', false), files('alice', true));
    expect(r.unknown).toEqual([]);
    expect(new Set(r.witnesses.map((w) => w.kind))).toEqual(new Set(['newly-denied']));
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('another approver: newly allowed for a run the first started, newly denied for one the second started', async () => {
    const { b, p, r } = pair(files('alice', true), files('bob', true));
    expect(r.unknown).toEqual([]);
    const starters = (kind: Witness['kind']) =>
      r.witnesses.filter((w) => w.kind === kind).flatMap((w) => starterOf(w).map((v) => v?.toLowerCase()));
    expect(starters('newly-allowed')).toContain('alice');
    expect(starters('newly-denied')).toContain('bob');
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('the approver in another case: no run decided differently', () => {
    const { r } = pair(files('alice', true), files('ALICE', true));
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  it('an approver a glob would read otherwise: unknown, naming it', async () => {
    const { b, p, r } = pair(files('al*ce', true), files('bob', true));
    expect(r.unknown.join('\n')).toMatch(/approvedBy "al\*ce" is compared with who started the run/);
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });
});

describe('prove under the second-person rule', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const property = `kind: PolicyProperty
name: production-only-for-the-approver
never:
  match: { environments: [production], createdBy: [alice] }
`;
  const proveWith = (approvedBy: string) => {
    const dir = dirs.write({ ...files(approvedBy, true), 'p.property.yaml': property });
    const [result] = proveDir(dir);
    return { dir, result };
  };

  it('the exception approved by alice never lets alice into production: proven', () => {
    expect(proveWith('alice').result).toMatchObject({ status: 'proven' });
  });

  it('approved by bob: a counterexample, alice in production, that eval decides so', async () => {
    const { dir, result } = proveWith('bob');
    expect(result.status).toBe('counterexample');
    const w = result.witness as Witness;
    expect(starterOf(w).map((v) => v?.toLowerCase())).toContain('alice');
    expect(await evalWitness(dir, w)).toBe(true);
  });
});

describe('diff over the second-person rule agrees with starters made without its classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  // ſ (long s) folds to s, as a createdBy glob compares names: sam and ſam are one person.
  const usernames = [
    undefined,
    '',
    'alice',
    'ALICE',
    ' Alice ',
    'alice@example.com',
    'bob',
    'carol',
    'sam',
    'ſam',
    'ſAM',
  ];
  const emails = [undefined, 'alice@example.com', 'Alice@Example.com', 'bob@example.com', 'carol@example.com'];
  const payloads = fc
    .record({
      team: fc.constantFrom('SRE', 'ADM'),
      environment: fc.constantFrom('production', 'staging'),
      username: fc.constantFrom(...usernames),
      email: fc.constantFrom(...emails),
    })
    .map(({ team, environment, username, email }) => {
      const execution: Record<string, unknown> = {
        id: 7,
        experimentKey: `${team}-1`,
        teamKey: team,
        environment,
        steps: [],
      };
      if (username !== undefined)
        execution.createdBy = { username, name: 'Someone', ...(email === undefined ? {} : { email }) };
      return { event: 'experiment.execution.preflight', execution } as unknown as PreflightPayload;
    });
  const SIDES: Array<[string, boolean, string?]> = [
    ['alice', true],
    ['alice', false],
    ['alice@example.com', true],
    ['BOB', true],
    ['sam', true],
    [
      'sam',
      true,
      'kind: Policy\nname: sam-not-in-production\nmatch: { createdBy: [sam] }\nrules:\n  - environments: { blocked: [production] }\n',
    ],
  ];
  const sideFiles = ([approver, secondPerson, extra]: [string, boolean, string?]) => ({
    ...files(approver, secondPerson),
    ...(extra ? { 'x.yaml': extra } : {}),
  });

  it('every sampled difference is among the witnesses', () => {
    for (const b of SIDES)
      for (const p of SIDES)
        expectSampledKinds(
          setOf(dirs.write(sideFiles(b))),
          setOf(dirs.write(sideFiles(p))),
          payloads,
          fc.constant(0),
          (quiet) => quiet,
          generatedSize(120, 40),
        );
  });
});
