import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { Witness } from '../../src/prove/analysis';
import { generatedSize } from '../helpers/test-lane';
import { diffPairs, expectSampledKinds, setDirs, setOf } from './prove-sets';

/**
 * diff over exceptions with maxUses (docs/decisions/0050): the use counts each witness gives
 * (`state.exceptionUses`, as `eval --state` reads it), each witness decided by eval.
 */
describe('diff over how often exceptions have waived a run', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);
  const policy = `kind: Policy
name: no-production
rules:
  - environments: { blocked: [production] }
`;
  const exception = (maxUses: string) => `kind: Exception
name: gameday
policy: no-production
owner: sre@example.com
reason: gameday CHG-7
expires: "2026-03-05T00:00:00Z"
match: { teams: [SRE] }
${maxUses}`;
  const usesOf = (w: Witness) => w.facts.state.exceptionUses?.gameday;

  it('maxUses raised from 1 to 3: newly allowed after one or two uses', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy, 'e.yaml': exception('maxUses: 1\n') },
      { 'p.yaml': policy, 'e.yaml': exception('maxUses: 3\n') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    const w = r.witnesses[0];
    expect(usesOf(w)).toBeGreaterThanOrEqual(1);
    expect(usesOf(w)).toBeLessThan(3);
    expect(w.payload.execution.teamKey).toBe('SRE');
    await roundTrip(b, p, w);
  });

  it('maxUses lowered from 3 to 1: newly denied after one or two uses', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy, 'e.yaml': exception('maxUses: 3\n') },
      { 'p.yaml': policy, 'e.yaml': exception('maxUses: 1\n') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-denied']);
    expect(r.witnesses[0].proposed?.message).toMatch(/exception "gameday" is used up/);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('an exception with maxUses added: newly allowed while unused', async () => {
    const { b, p, r } = pair({ 'p.yaml': policy }, { 'p.yaml': policy, 'e.yaml': exception('maxUses: 2\n') });
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(usesOf(r.witnesses[0])).toBeLessThan(2);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('maxUses removed: newly allowed once the old count is used up', async () => {
    const { b, p, r } = pair(
      { 'p.yaml': policy, 'e.yaml': exception('maxUses: 2\n') },
      { 'p.yaml': policy, 'e.yaml': exception('') },
    );
    expect(r.unknown).toEqual([]);
    expect(r.witnesses.map((w) => w.kind)).toEqual(['newly-allowed']);
    expect(usesOf(r.witnesses[0])).toBeGreaterThanOrEqual(2);
    await roundTrip(b, p, r.witnesses[0]);
  });

  it('the same exception: no run decided differently', () => {
    const same = { 'p.yaml': policy, 'e.yaml': exception('maxUses: 2\n') };
    const { r } = pair(same, same);
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });
});

describe('diff over maxUses agrees with use counts made without its classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const policy = 'kind: Policy\nname: no-production\nrules:\n  - environments: { blocked: [production] }\n';
  const exception = (maxUses: number | undefined) =>
    `kind: Exception\nname: gameday\npolicy: no-production\nowner: sre@example.com\nreason: gameday\nexpires: "2026-03-05T00:00:00Z"\nmatch: { teams: [SRE] }\n${maxUses === undefined ? '' : `maxUses: ${maxUses}\n`}`;
  const payloads = fc
    .record({ team: fc.constantFrom('SRE', 'ADM'), environment: fc.constantFrom('production', 'staging') })
    .map(
      ({ team, environment }) =>
        ({
          event: 'experiment.execution.preflight',
          execution: { id: 7, experimentKey: `${team}-1`, teamKey: team, environment, steps: [] },
        }) as unknown as PreflightPayload,
    );
  // A count, none gathered, or one the store cannot keep.
  const counts = fc.oneof(fc.nat({ max: 5 }), fc.constant('not gathered' as const), fc.constant('unknown' as const));
  const SIDES = [undefined, 1, 2, 4];

  it('every sampled difference is among the witnesses', () => {
    for (const b of [...SIDES, 'none' as const])
      for (const p of [...SIDES, 'none' as const])
        expectSampledKinds(
          setOf(dirs.write({ 'p.yaml': policy, ...(b === 'none' ? {} : { 'e.yaml': exception(b) }) })),
          setOf(dirs.write({ 'p.yaml': policy, ...(p === 'none' ? {} : { 'e.yaml': exception(p) }) })),
          payloads,
          counts,
          (quiet, n) =>
            n === 'unknown'
              ? { ...quiet, exceptionUses: undefined, exceptionUsesUnknown: 'the store cannot keep them (test)' }
              : { ...quiet, exceptionUses: n === 'not gathered' ? undefined : { gameday: n } },
          generatedSize(60, 30),
        );
  });
});
