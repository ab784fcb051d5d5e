import fc from 'fast-check';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { generatedSize } from '../helpers/test-lane';
import { expectSampledKinds, setDirs, setOf } from './prove-sets';

/**
 * Team names as the engine reads them, upper-cased (engine/create-context.ts): `ß` is `SS`, `ẞ` is
 * not, `ı` and `i` are both `I`. diff over scopes on such teams agrees with runs made without its classes.
 */
describe('diff over teams written in letters whose case does not round-trip', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const teams = ['ß', 'ẞ', 'SS', 'ss', 'ſhop', 'SHOP', 'shop', 'ı', 'I', 'i', 'İ', 'OTHER'];
  const payloads = fc
    .record({ team: fc.constantFrom(...teams), environment: fc.constantFrom('production', 'staging') })
    .map(
      ({ team, environment }) =>
        ({
          event: 'experiment.execution.preflight',
          execution: { id: 7, experimentKey: 'EXP-1', teamKey: team, environment, steps: [] },
        }) as unknown as PreflightPayload,
    );
  const policy = (written: string[]) =>
    `kind: Policy\nname: no-production-for-${written.join('-') === 'NOBODY' ? 'nobody' : 'them'}\nmatch: { teams: ${JSON.stringify(written)} }\nrules:\n  - environments: { blocked: [production] }\n`;
  const SIDES = [[], ['ß'], ['ẞ'], ['SS'], ['SHOP'], ['ı'], ['İ'], ['ß', 'SHOP']];

  it('every sampled difference is among the witnesses', () => {
    for (const b of SIDES)
      for (const p of SIDES)
        expectSampledKinds(
          setOf(dirs.write({ 'base.yaml': policy(['NOBODY']), ...(b.length === 0 ? {} : { 'p.yaml': policy(b) }) })),
          setOf(dirs.write({ 'base.yaml': policy(['NOBODY']), ...(p.length === 0 ? {} : { 'p.yaml': policy(p) }) })),
          payloads,
          fc.constant(0),
          (quiet) => quiet,
          generatedSize(120, 40),
        );
  });
});
