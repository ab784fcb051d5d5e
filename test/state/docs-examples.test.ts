import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadBundle } from '../../src/policy/load-bundle';
import { ROOT } from '../helpers/server-process';

const yamlBlocks = (text: string) => [...text.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
const examples = [
  ...yamlBlocks(readFileSync(join(ROOT, 'docs', 'state.md'), 'utf8')),
  ...yamlBlocks(readme.slice(readme.indexOf('## Guardrails with memory'))).slice(0, 1),
];
const aliases = 'kind: EnvironmentAliases\naliases:\n  production: [prod-id]\n  staging: [staging-id]\n';

describe('the policy examples of docs/state.md and the README section', () => {
  test('has policy examples', () => {
    expect(examples.length).toBeGreaterThanOrEqual(4);
  });

  test.each(examples.map((text, i) => [i, text]))('example %i loads without a problem', (_i, text) => {
    const result = loadBundle([{ file: 'aliases.yaml', text: aliases }, { file: 'example.yaml', text: String(text) }]);
    expect(result.ok ? [] : result.problems.map((p) => `${p.path} ${p.message}`)).toEqual([]);
  });
});
