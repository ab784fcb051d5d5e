import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { formatProblem } from '../../../src/policy/compile/load-error';
import { RULE_KINDS } from '../../../src/policy/rules';
import { problemsOf } from '../../helpers/decide-harness';

const doc = readFileSync(join(__dirname, '..', '..', '..', 'docs', 'policies.md'), 'utf8');
/** Every registered kind with a section in docs/policies.md (the others are documented with their source, e.g. docs/state.md). */
const KINDS = RULE_KINDS.map((k) => k.key).filter((key) => doc.includes(`### \`${key}\``));

/** The YAML examples of the `### \`kind\`` section; fragments starting at `rules:` become a policy. */
function examples(kind: string): string[] {
  const start = doc.indexOf(`### \`${kind}\``);
  if (start < 0) return [];
  const next = doc.slice(start + 4).search(/\n#{2,3} /);
  const section = doc.slice(start, next < 0 ? undefined : start + 4 + next);
  return [...section.matchAll(/```yaml\n([\s\S]*?)```/g)].map((m) =>
    m[1].startsWith('kind:') ? m[1] : `kind: Policy\nname: doc-example\n${m[1]}`,
  );
}

describe('the rule kinds reference in docs/policies.md', () => {
  test.each(KINDS)('the %s section has an example that loads without problems', (kind) => {
    const found = examples(kind);
    expect(found.length).toBeGreaterThan(0);
    for (const yaml of found) expect(problemsOf(yaml).map(formatProblem)).toEqual([]);
  });

  test('every registered rule kind is documented: a section in docs/policies.md, or a row of the rule table in another doc', () => {
    const docs = readdirSync(join(__dirname, '..', '..', '..', 'docs'))
      .filter((f) => f.endsWith('.md') && f !== 'policies.md')
      .map((f) => readFileSync(join(__dirname, '..', '..', '..', 'docs', f), 'utf8'))
      .join('\n');
    const undocumented = RULE_KINDS.map((k) => k.key).filter(
      (key) => !doc.includes(`### \`${key}\``) && !docs.includes(`| \`${key}\` |`),
    );
    expect(undocumented).toEqual([]);
  });
});
