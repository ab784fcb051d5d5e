import { ROOT } from '../helpers/server-process';
import { layerViolations } from './policy-layers';
import { srcImportGraph } from './src-import-graph';

// Issue 29 item 7: the policy language reads as layers, each built on the ones below it
// (policy-layers.ts). Type-only imports count too.
describe('the policy language layers', () => {
  // The graph is madge's (import-cycles.test.ts checks it edge for edge), read in a second instead of four.
  test('every import in src/policy goes down the layers, and nothing below the language imports it', () => {
    const files = srcImportGraph(ROOT);
    expect(Object.keys(files).filter((f) => f.startsWith('policy/core/')).length).toBeGreaterThan(5);
    expect(layerViolations(files)).toEqual([]);
  });

  test.each([
    ['core imports the engine', 'policy/core/compiled.ts', 'policy/engine/scope.ts'],
    ['the engine imports loading', 'policy/engine/decide.ts', 'policy/loading/load-bundle.ts'],
    ['time imports the engine', 'policy/time/zone.ts', 'policy/engine/evaluate-policy.ts'],
    ['facts import the core', 'policy/facts/facts.ts', 'policy/core/decision.ts'],
    ['rules import compile', 'policy/rules/quota.ts', 'policy/compile/compile-document.ts'],
    ['compile imports loading', 'policy/compile/compile-document.ts', 'policy/loading/name-typos.ts'],
    ['two layers of the same rank', 'policy/time/zone.ts', 'policy/predicate/predicate.ts'],
    ['the language imports an adapter', 'policy/engine/decide.ts', 'http/preflight-route.ts'],
    ['a file at the top of policy/', 'policy/engine/decide.ts', 'policy/compiled.ts'],
    ['a module below the language imports it', 'validation/ajv.ts', 'policy/loading/string-syntax.ts'],
    ['the ground floor imports it', 'common/logger.ts', 'policy/core/decision.ts'],
    ['the payload imports the core', 'payload/types.ts', 'policy/core/decision.ts'],
  ])('a planted import is found: %s', (_name, from, to) => {
    const graph = {
      'policy/rules/cooldown.ts': ['policy/core/rule-kind.ts', 'policy/core/glob-matcher.ts'],
      [from]: [to],
    };
    expect(layerViolations(graph)).toEqual([`${from} -> ${to}`]);
  });
});
