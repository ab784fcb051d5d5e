import { diffCommand, diffGithub } from '../../src/cli/commands/diff-command';
import { BadInputError } from '../../src/common/bad-input-error';
import { diffSets } from '../../src/prove/analysis';
import { firstDifference } from '../../src/prove/rule-location';
import { NOW, setDirs, setOf } from './prove-sets';

/**
 * The Action's annotation of a diff (`diff --format github`) points at the line of the field that
 * changed in the pull request's policy, not at the rule's entry: where a reviewer reads the change.
 */
const caps = (pct: number, envs = '[production]') => `kind: Policy
name: caps
description: at most some of the targets in production
match:
  environments: ${envs}
rules:
  - actions:
      blocked: ["*shutdown*"]
  - targets:
      maxPercentage: ${pct}
      requireMaximum: false
`;

describe('diff --format github: the annotation is at the changed field', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  const annotations = (base: string, proposed: string) => {
    const [b, p] = [dirs.write({ 'caps.yaml': base }), dirs.write({ 'caps.yaml': proposed })];
    const out = diffGithub(diffSets(setOf(b), setOf(p), NOW), { base: setOf(b), proposed: setOf(p) }, 'newly-allowed');
    return out.split('\n').filter((l) => l.startsWith('::'));
  };

  it('a cap raised: at the line of maxPercentage, its value', () => {
    const lines = annotations(caps(25), caps(30));
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      /^::error file=[^,]*caps\.yaml,line=10,col=22,title=preflight-gate diff%3A newly-allowed::/,
    );
  });

  it('a changed rule beyond the analysis: the unknown at that rule, an error with --strict', () => {
    const cond = (n: number) => `kind: Policy
name: big
rules:
  - targets:
      maxPercentage: 50
  - condition:
      deny: { ">": [{ var: targets.total }, ${n}] }
      reason: too big
`;
    const [b, p] = [dirs.write({ 'big.yaml': cond(20) }), dirs.write({ 'big.yaml': cond(30) })];
    const result = diffSets(setOf(b), setOf(p), NOW);
    const sets = { base: setOf(b), proposed: setOf(p) };
    const lines = (strict: boolean) =>
      diffGithub(result, sets, 'newly-allowed', strict)
        .split('\n')
        .filter((l) => l.startsWith('::'));
    // At the changed value in the second rule (line 7), not the first rule nor the file's start.
    expect(lines(false)).toEqual([
      expect.stringMatching(
        /^::warning file=[^,]*big\.yaml,line=7,col=45,title=preflight-gate diff%3A unknown::big rules\[1\]\.condition changed and is beyond the analysis/,
      ),
    ]);
    expect(lines(true)).toEqual([expect.stringMatching(/^::error file=[^,]*big\.yaml,line=7,col=45,/)]);
  });

  it('an exception added: at the exception, not at the rules it waives', () => {
    const exception = `# a gameday
kind: Exception
name: gameday
policy: caps
owner: sre@example.com
reason: gameday CHG-1
expires: "2026-03-05T00:00:00Z"
match: { teams: [SRE] }
`;
    const [b, p] = [
      dirs.write({ 'caps.yaml': caps(25) }),
      dirs.write({ 'caps.yaml': caps(25), 'gameday.yaml': exception }),
    ];
    const out = diffGithub(diffSets(setOf(b), setOf(p), NOW), { base: setOf(b), proposed: setOf(p) }, 'newly-allowed');
    const lines = out.split('\n').filter((l) => l.startsWith('::'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^::error file=[^,]*gameday\.yaml,line=2,/);
  });

  it("a scope widened: at the environment added to the policy's match", () => {
    const lines = annotations(caps(25), caps(25, '[production, staging]'));
    expect(lines.length).toBeGreaterThan(0);
    // The list grew: at the list (`[production, staging]`), on its line.
    for (const line of lines) expect(line).toMatch(/^::(error|warning) file=[^,]*caps\.yaml,line=5,col=17,/);
  });

  it('an id added to an alias the policy names: at that alias, not at the rules', () => {
    const aliases = (ids: string) => `kind: EnvironmentAliases
aliases:
  staging: [stage-eu]
  production: ${ids}
`;
    const [b, p] = [
      dirs.write({ 'caps.yaml': caps(25), 'aliases.yaml': aliases('[prod-eu]') }),
      dirs.write({ 'caps.yaml': caps(25), 'aliases.yaml': aliases('[prod-eu, prod-us]') }),
    ];
    const out = diffGithub(diffSets(setOf(b), setOf(p), NOW), { base: setOf(b), proposed: setOf(p) }, 'newly-allowed');
    const lines = out.split('\n').filter((l) => l.startsWith('::'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines)
      expect(line).toMatch(
        /^::(error|warning) file=[^,]*aliases\.yaml,line=4,col=15,title=preflight-gate diff%3A newly-/,
      );
  });

  it('an alias the policy names removed, another grown: at the rule, not at the other alias', () => {
    const aliases = (text: string) => `kind: EnvironmentAliases\naliases:\n${text}`;
    const [b, p] = [
      dirs.write({
        'caps.yaml': caps(25),
        'aliases.yaml': aliases('  staging: [stage-eu]\n  production: [prod-eu]\n'),
      }),
      dirs.write({ 'caps.yaml': caps(25), 'aliases.yaml': aliases('  staging: [stage-eu, prod-eu]\n') }),
    ];
    const out = diffGithub(diffSets(setOf(b), setOf(p), NOW), { base: setOf(b), proposed: setOf(p) }, 'newly-allowed');
    const lines = out.split('\n').filter((l) => l.startsWith('::'));
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatch(/^::(error|warning) file=[^,]*caps\.yaml,line=/);
  });
});

describe('diff --format github of a set that does not load', () => {
  const dirs = setDirs();
  afterAll(dirs.cleanup);
  it('each error an annotation on its file and line, naming the side; then the usage error', () => {
    const good = dirs.write({ 'caps.yaml': caps(25) });
    const broken = dirs.write({ 'caps.yaml': caps(25).replace('- targets:', '- targetz:') });
    const run = (base: string, proposed: string, format: 'github' | 'text') => {
      let out = '';
      let thrown: unknown;
      try {
        diffCommand(base, proposed, { format, failOn: 'newly-allowed', now: NOW.toISOString() }, {}, (s) => {
          out += s;
        });
      } catch (err) {
        thrown = err;
      }
      return { out, thrown };
    };
    const proposed = run(good, broken, 'github');
    expect(proposed.thrown).toBeInstanceOf(BadInputError);
    expect(proposed.out).toMatch(
      /^::error file=[^,]*caps\.yaml,line=9,col=5,title=preflight-gate diff%3A the proposed set does not load::rules\[1\]\.targetz: unknown rule kind/,
    );
    expect(run(broken, good, 'github').out).toMatch(/title=preflight-gate diff%3A the base set does not load::/);
    // Text and the other formats: the usage error alone, on stderr.
    expect(run(good, broken, 'text').out).toBe('');
  });
});

describe('firstDifference', () => {
  it.each([
    [{ a: 1, b: [1, 2] }, { a: 1, b: [1, 3] }, ['b', 1]],
    [{ a: 1 }, { a: 1, c: { d: 2 } }, ['c']],
    [{ a: 1, c: 2 }, { a: 1 }, []],
    [{ b: [1, 2] }, { b: [1] }, ['b']],
    [{ a: { b: 1 } }, { a: { b: 1 } }, undefined],
  ])('%j -> %j: %j', (before, after, path) => {
    expect(firstDifference(before, after)).toEqual(path);
  });
});
