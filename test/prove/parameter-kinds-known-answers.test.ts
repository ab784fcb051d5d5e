import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import type { Witness } from '../../src/prove/analysis';

import { generatedSize } from '../helpers/test-lane';
import { diffPairs, evalWitness, expectSampledKinds, setDirs, setOf, proveDir } from './prove-sets';

/**
 * A step parameter that one limit reads as a number and another as a duration (syntax/parameter-value.ts):
 * `"4m"` is no number but 240000 ms, `-1` a number but no duration. diff and prove split the value
 * by both readings; each witness is decided by eval.
 */
const limit = (spec: string) => `kind: Policy
name: short-attacks
rules:
  - parameters: { duration: ${spec} }
`;
const durationOf = (w: Witness) => w.payload.execution.steps?.[0]?.parameters?.duration;

describe('diff over a parameter limit written as a number and as a duration', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const { pair, roundTrip } = diffPairs(dirs);

  it('300000 (a number) to 5m (a duration): newly allowed a duration with units, newly denied a negative number', async () => {
    const { b, p, r } = pair({ 'p.yaml': limit('{ max: 300000 }') }, { 'p.yaml': limit('{ max: 5m }') });
    expect(r.unknown).toEqual([]);
    const of = (kind: Witness['kind']) => r.witnesses.filter((w) => w.kind === kind).map(durationOf);
    expect(of('newly-allowed').some((v) => typeof v === 'string' && Number.isNaN(Number(v)))).toBe(true);
    expect(of('newly-denied').some((v) => typeof v === 'number' && v < 0)).toBe(true);
    for (const w of r.witnesses) await roundTrip(b, p, w);
  });

  it('80 (a number) to 80ms (a duration) and back: a difference both ways', async () => {
    for (const [x, y] of [
      ['{ max: 80 }', '{ max: 80ms }'],
      ['{ max: 80ms }', '{ max: 80 }'],
    ]) {
      const { b, p, r } = pair({ 'p.yaml': limit(x) }, { 'p.yaml': limit(y) });
      expect(r.unknown).toEqual([]);
      expect(new Set(r.witnesses.map((w) => w.kind))).toEqual(new Set(['newly-allowed', 'newly-denied']));
      for (const w of r.witnesses) await roundTrip(b, p, w);
    }
  });

  it('the same limit: no run decided differently', () => {
    const { r } = pair({ 'p.yaml': limit('{ max: 5m }') }, { 'p.yaml': limit('{ max: 5m }') });
    expect([r.witnesses, r.unknown]).toEqual([[], []]);
  });

  it('prove: a property in durations over a set in numbers gives a counterexample eval decides so', async () => {
    const dir = dirs.write({
      'p.yaml': limit('{ max: 300000 }'),
      'd.property.yaml':
        'kind: PolicyProperty\nname: at-most-5m\nnever:\n  rules:\n    - parameters: { duration: { max: 5m } }\n',
    });
    const [result] = proveDir(dir);
    expect(result.status).toBe('counterexample');
    expect(await evalWitness(dir, result.witness as Witness)).toBe(true);
  });
});

describe('diff over a parameter read two ways agrees with values made without its classes', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const values = [
    undefined,
    null,
    0,
    1,
    299_999,
    300_000,
    300_001,
    -1,
    -6,
    -5,
    -4.5,
    '-1',
    '300000',
    ' 300001 ',
    '0ms',
    '4m',
    '5m',
    '5m1ms',
    '6m',
    '1h',
    '80ms',
    80,
    81,
    'x',
    true,
    Number.POSITIVE_INFINITY,
  ];
  const payloads = fc.record({ v: fc.constantFrom(...values), team: fc.constantFrom('SRE', 'ADM') }).map(
    ({ v, team }) =>
      ({
        event: 'experiment.execution.preflight',
        execution: {
          id: 7,
          experimentKey: `${team}-1`,
          teamKey: team,
          environment: 'staging',
          steps: [
            {
              actionId: 'com.steadybit.extension_container.stress_cpu',
              actionKind: 'ATTACK',
              ...(v === undefined ? {} : { parameters: { duration: v } }),
            },
          ],
        },
      }) as unknown as PreflightPayload,
  );
  const SIDES = [
    '{ max: 300000 }',
    '{ max: 5m }',
    '{ min: 1m, max: 10m }',
    '{ min: -5, max: 80 }',
    '{ max: 80ms, whenMissing: allow }',
  ];

  it('every sampled difference is among the witnesses', () => {
    for (const b of SIDES)
      for (const p of SIDES)
        expectSampledKinds(
          setOf(dirs.write({ 'p.yaml': limit(b) })),
          setOf(dirs.write({ 'p.yaml': limit(p) })),
          payloads,
          fc.constant(0),
          (quiet) => quiet,
          generatedSize(120, 40),
        );
  });
});
