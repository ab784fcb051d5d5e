import { ROOT } from '../helpers/server-process';
import { FLOORS, floorOf, floorViolations } from './floor-plan';
import { srcImportGraph } from './src-import-graph';

// Issue 45 item 3: all of src/ reads as floors, each built on the ones below it (floor-plan.ts).
// Type-only imports count too.
describe('the floor plan of src/', () => {
  const graph = srcImportGraph(ROOT);

  test('every import goes down a floor, and nothing in src/ imports from test/', () => {
    expect(Object.keys(graph).length).toBeGreaterThan(300);
    expect(floorViolations(graph)).toEqual([]);
  });

  test('every floor of the plan holds files, and every folder of src/ is on it', () => {
    const used = new Set(
      Object.keys(graph)
        .filter((f) => !f.startsWith('..'))
        .map(floorOf),
    );
    expect([...used].sort()).toEqual(Object.keys(FLOORS).sort());
  });

  test.each([
    ['an import upward', 'policy/core/decision.ts', 'http/preflight-route.ts'],
    ['two folders on one floor', 'state/state-store.ts', 'signals/signal-source.ts'],
    ['the ground floor imports the language', 'common/logger.ts', 'policy/core/decision.ts'],
    ['a src/ file imports a test fixture', 'playground/page/main.ts', '../test/fixtures/payloads/x.json'],
    ['a folder not on the plan', 'gadgets/thing.ts', 'common/logger.ts'],
    ['an import of a folder not on the plan', 'http/preflight-route.ts', 'gadgets/thing.ts'],
  ])('a planted import is found: %s', (_name, from, to) => {
    const planted = { 'guard/run-guard.ts': ['policy/core/decision.ts', 'common/logger.ts'], [from]: [to] };
    const found = floorViolations(planted);
    expect(found).toHaveLength(1);
    expect(found[0]).toContain(from);
  });
});
