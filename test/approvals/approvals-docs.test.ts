import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProblems } from '../helpers/decide-harness';
import { ROOT } from '../helpers/server-process';

/** The YAML of docs/approvals.md loads without a problem: what the page tells people to write works. */
test('docs/approvals.md examples load as one policy set, without problems', () => {
  const page = readFileSync(join(ROOT, 'docs', 'approvals.md'), 'utf8');
  const blocks = [...page.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
  expect(blocks.length).toBeGreaterThanOrEqual(2);
  expect(loadProblems(Object.fromEntries(blocks.map((b, i) => [`doc-${i}.yaml`, b])))).toEqual([]);
});
