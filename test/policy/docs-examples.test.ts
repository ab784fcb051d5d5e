import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadProblems } from '../helpers/decide-harness';

const doc = readFileSync(join(__dirname, '..', '..', 'docs', 'policies.md'), 'utf8');

/** `## Section` (or `### \`kind\``) -> its YAML examples; other engineers' rule sections are tested in test/policy/rules. */
function examples(heading: string): string[] {
  const start = doc.indexOf(`\n${heading}`);
  if (start < 0) return [];
  const next = doc.slice(start + heading.length + 1).search(/\n#{2,3} /);
  const section = doc.slice(start, next < 0 ? undefined : start + heading.length + 1 + next);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) => m[1]);
}

const SECTIONS = [
  '## Scope: match and exclude',
  '### Targets owned by a team',
  '## Globs and names',
  '## Modes: enforce, warn, audit',
  '## Priority',
  '## Messages and placeholders',
  '## Modifications',
  '## Exceptions',
  '## Environment aliases',
  '## Combining',
  '## While a run is in progress: `whileRunning`',
  '### `timeWindow`',
  '### `condition`',
];

describe('docs/policies.md examples', () => {
  test.each(SECTIONS)('"%s" has an example that loads without problems', (heading) => {
    const found = examples(heading);
    expect(found.length).toBeGreaterThan(0);
    const aliases = 'kind: EnvironmentAliases\naliases:\n  payments-prod: [payments-prod-eu]\n';
    for (const yaml of found) {
      const files: Record<string, string> = { 'doc.yaml': yaml };
      if (!yaml.includes('kind: Policy'))
        files['policy.yaml'] = 'kind: Policy\nname: any\nrules:\n  - environments: {blocked: [nowhere]}\n';
      if (!yaml.includes('kind: EnvironmentAliases')) files['aliases.yaml'] = aliases;
      expect(loadProblems(files, new Date('2026-01-05T10:00:00Z'))).toEqual([]);
    }
  });

  test('the documented condition data roots are the ones the engine accepts', () => {
    const section = doc.slice(doc.indexOf('### `condition`'));
    for (const root of ['payload', 'execution', 'now', 'time', 'environments', 'steps', 'targets'])
      expect(section).toContain(`| \`${root}`);
  });

  test('the malformed-glob error shown under "Globs and names" is the one the loader gives for the typo it describes', () => {
    const section = doc.slice(doc.indexOf('\n## Globs and names'));
    const [example] = examples('## Globs and names');
    const shown = /```text\n(.*)\n```/.exec(section)?.[1];
    const typo = example.replace(/blocked: \["[^"]*"/, 'blocked: ["com.steadybit.[extension_*"');
    expect(typo).not.toBe(example);
    expect(loadProblems({ 'policies/aws.yaml': typo })).toEqual([shown]);
  });
});
