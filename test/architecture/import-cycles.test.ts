import { join } from 'node:path';
import madge from 'madge';
import { ROOT } from '../helpers/server-process';
import { srcImportGraph } from './src-import-graph';

// Issue 20: no import circle in src/. Type-only imports count too: a circle of types is still a
// circle a reader has to untangle.
test('src/ has no import circle', async () => {
  const graph = await madge(join(ROOT, 'src'), { fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.json') });
  expect(graph.circular()).toEqual([]);
  // The graph really holds the source: an empty graph would prove nothing.
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(100);
  // The fast lane's layer check (policy-layers.test.ts) reads the same graph without madge: edge for edge.
  const sorted = Object.fromEntries(Object.entries(graph.obj()).map(([file, imports]) => [file, [...imports].sort()]));
  expect(srcImportGraph(ROOT)).toEqual(sorted);
}, 60_000);
