import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem } from '../../../src/policy/compile/load-error';
import { problemsOf } from '../../helpers/decide-harness';

const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'attacked-services.md'), 'utf8');
const policies = [...doc.matchAll(/```yaml\n([\s\S]*?)```/g)]
  .map((m) => m[1])
  .filter((y) => y.startsWith('kind: Policy'));

test('docs/attacked-services.md has policy examples, and each loads without problems', () => {
  expect(policies.length).toBeGreaterThanOrEqual(2);
  for (const yaml of policies) expect(problemsOf(yaml).map(formatProblem)).toEqual([]);
});
