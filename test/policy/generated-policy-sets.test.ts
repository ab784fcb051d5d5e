import { parse } from 'yaml';
import { usableRuleKinds } from '../helpers/policy-sets/usable-rule-kinds';
import { generatePolicySet, platformCount } from '../helpers/policy-sets/generate-policies';
import { RULE_KINDS } from '../../src/policy/rules';
import { loadBundle } from '../../src/policy/loading/load-bundle';

const kinds = usableRuleKinds();
type Doc = { kind: string; match?: Record<string, unknown>; rules?: Array<Record<string, unknown>> };
const docs = (size: number) =>
  generatePolicySet(size, kinds.usable)
    .map((f) => parse(f.text) as Doc)
    .filter((d) => d.kind === 'Policy');

describe('benchmark policy generator', () => {
  test.each([10, 100, 1000])('%i generated policies load as one valid bundle', (size) => {
    const result = loadBundle(generatePolicySet(size, kinds.usable));
    if (!result.ok) throw new Error(result.problems.map((p) => `${p.file}:${p.line} ${p.message}`).join('\n'));
    expect(result.bundle.policies).toHaveLength(size);
  });

  test('every registered rule kind is either used or named in a note', () => {
    const accounted = [...kinds.usable, ...kinds.notes.map((n) => /"([^"]+)"/.exec(n)?.[1])];
    expect(accounted.sort()).toEqual(RULE_KINDS.map((k) => k.key).sort());
    expect(kinds.usable).toContain('environments');
  });

  test('a set of 1,000 mixes every scope field and every usable rule kind', () => {
    const set = docs(1000);
    const fields = new Set(set.flatMap((d) => Object.keys(d.match ?? {})));
    expect([...fields].sort()).toEqual(['actionIds', 'createdVia', 'environments', 'experimentKeys', 'teams']);
    const used = new Set(set.flatMap((d) => (d.rules ?? []).map((r) => Object.keys(r)[0])));
    expect([...used].sort()).toEqual([...kinds.usable].sort());
    expect(set.filter((d) => d.match?.teams === undefined && d.match?.experimentKeys === undefined)).toHaveLength(
      platformCount(1000),
    );
  });

  test('the same size gives the same files (seeded)', () => {
    expect(generatePolicySet(50, kinds.usable)).toEqual(generatePolicySet(50, kinds.usable));
  });

  test('refuses to generate without a rule kind', () => {
    expect(() => generatePolicySet(10, [])).toThrow('no usable rule kinds');
  });
});
