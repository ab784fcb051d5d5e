import { matchesLabels, parseMatchers, resolveMatchers, type Matcher } from '../../src/policy/signals/matcher';
import type { RunValues } from '../../src/policy/signals/placeholder-text';

function parsed(text: string): Matcher[] {
  const m = parseMatchers(text);
  if (typeof m === 'string') throw new Error(m);
  return m;
}
const matches = (text: string, labels: Record<string, string>, values: RunValues = {}) => {
  const resolved = resolveMatchers(parsed(text), values);
  if ('missing' in resolved) throw new Error(`missing ${resolved.missing}`);
  return matchesLabels(resolved, labels);
};

describe('Alertmanager matchers', () => {
  it.each([
    ['severity="critical"', { severity: 'critical' }, true],
    ['severity="critical"', { severity: 'warning' }, false],
    ['severity!="critical"', { severity: 'warning' }, true],
    ['severity!="critical"', {}, true],
    ['severity=~"critical|page"', { severity: 'page' }, true],
    ['severity=~"crit"', { severity: 'critical' }, false],
    ['severity!~"info|none"', { severity: 'critical' }, true],
    ['team=""', {}, true],
    ['team=~".+"', {}, false],
    ['{severity="critical", team=~"a|b"}', { severity: 'critical', team: 'b' }, true],
    ['{severity="critical", team=~"a|b"}', { severity: 'critical', team: 'c' }, false],
    ['severity=critical,team=a', { severity: 'critical', team: 'a' }, true],
    ['msg="a, b"', { msg: 'a, b' }, true],
    ['msg="say \\"hi\\""', { msg: 'say "hi"' }, true],
  ])('%s against %j -> %s', (text, labels, expected) => {
    expect(matches(text, labels)).toBe(expected);
  });

  it.each([
    ['', /is empty/],
    ['severity', /expected one of = != =~ !~ after "severity"/],
    ['1abc="x"', /expected a label name/],
    ['a="x', /unterminated quoted value/],
    ['a=~"(x"', /invalid regular expression/],
    ['{a="x"', /open a \{ that is not closed/],
    ['a="x" b="y"', /expected "," before/],
    ['a="{{cluster}}"', /unknown placeholder \{\{cluster\}\}/],
    ['a=x y', /must be quoted/],
  ])('refuses %j at load time', (text, problem) => {
    const result = parseMatchers(text);
    expect(typeof result).toBe('string');
    expect(result).toMatch(problem);
  });

  it('fills placeholders per run, literally even in a regex matcher', () => {
    expect(matches('namespace="{{environment}}"', { namespace: 'prod' }, { environment: 'prod' })).toBe(true);
    expect(matches('namespace="{{environment}}"', { namespace: 'prod' }, { environment: 'staging' })).toBe(false);
    // A value with regex characters matches only itself.
    expect(matches('team=~"{{team}}|platform"', { team: 'a.b' }, { team: 'a.b' })).toBe(true);
    expect(matches('team=~"{{team}}|platform"', { team: 'axb' }, { team: 'a.b' })).toBe(false);
    expect(matches('team=~"{{team}}|platform"', { team: 'platform' }, { team: 'a.b' })).toBe(true);
  });

  it('says which placeholder a run has no value for', () => {
    expect(resolveMatchers(parsed('team="{{team}}"'), { environment: 'prod' })).toEqual({ missing: 'team' });
  });
});
