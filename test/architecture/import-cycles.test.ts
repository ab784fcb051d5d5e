import { join } from 'node:path';
import madge from 'madge';
import { ROOT } from '../helpers/server-process';

// Issue 20: no import circle in src/. Type-only imports count too: a circle of types is still a
// circle a reader has to untangle.
test('src/ has no import circle', async () => {
  const graph = await madge(join(ROOT, 'src'), { fileExtensions: ['ts'], tsConfig: join(ROOT, 'tsconfig.json') });
  expect(graph.circular()).toEqual([]);
  // The graph really holds the source: an empty graph would prove nothing.
  expect(Object.keys(graph.obj()).length).toBeGreaterThan(100);
}, 60_000);
