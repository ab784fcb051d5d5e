import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import type { Decision } from '../../src/policy/core/decision';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
const NOW = new Date('2026-03-02T10:00:00Z');
const ALIASES = `kind: EnvironmentAliases\naliases:\n  payments: [${PROD}]\n`;
const UNKNOWN = { unknown: 'the Steadybit Platform API has not answered yet' };

const policy = (name: string, body: string) => `kind: Policy\nname: ${name}\n${body}`;
function decideWith(files: Record<string, string>, facts: Facts, env = PROD): Decision {
  return decide(
    bundleFrom({ 'aliases.yaml': ALIASES, ...files }, NOW),
    preflightWith((p) => {
      p.execution.environment = env;
    }),
    facts,
    NOW,
    { decisionId: 'd-1' },
  );
}
const named: Facts = { environments: { [PROD]: { name: 'Production' } } };
const unknown: Facts = { environments: { [PROD]: UNKNOWN } };
const result = (d: Decision, name: string) => d.results.find((r) => r.policy === name);

describe("policies match the Steadybit name of the run's environment", () => {
  test.each([
    [
      'match.environments',
      policy('p', 'match: {environments: [production]}\nrules:\n  - environments: {blocked: [production]}\n'),
    ],
    ['an environments rule', policy('p', 'rules:\n  - environments: {blocked: [PRODUCTION]}\n')],
  ])('%s by name: the id resolves to it', (_what, text) => {
    const d = decideWith({ 'p.yaml': text }, named);
    expect(d.allowed).toBe(false);
    expect(result(d, 'p')?.reasons).toEqual([`environment production (${PROD}) is blocked`]);
  });

  test('without names (no Platform API) a name-scoped policy does not match the id, as before', () => {
    const d = decideWith({ 'p.yaml': policy('p', 'rules:\n  - environments: {blocked: [production]}\n') }, {});
    expect(d.allowed).toBe(true);
  });

  test('a condition reads the name in environments.names', () => {
    const d = decideWith(
      {
        'p.yaml': policy(
          'p',
          'rules:\n  - condition: {deny: {in: [production, {var: environments.names}]}, reason: no chaos in production}\n',
        ),
      },
      named,
    );
    expect(result(d, 'p')?.reasons).toEqual(['no chaos in production']);
  });

  test('a name listed in an alias counts through the alias', () => {
    const d = decideWith(
      {
        'a.yaml': 'kind: EnvironmentAliases\naliases:\n  prod-like: [production]\n',
        'p.yaml': policy('p', 'rules:\n  - environments: {blocked: [prod-like]}\n'),
      },
      named,
    );
    expect(d.allowed).toBe(false);
  });
});

describe('a name that cannot be known: what depends on it cannot decide', () => {
  test.each([
    [
      'match.environments',
      policy('p', 'match: {environments: [production]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
      'cannot decide whether the run is in match.environments (production): the Steadybit Platform API has not answered yet',
    ],
    [
      'an exclude whose other fields match',
      policy('p', 'exclude: {environments: [staging], teams: [ADM]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
      'cannot decide whether the run is in exclude.environments (staging): the Steadybit Platform API has not answered yet',
    ],
    [
      'a blocked list',
      policy('p', 'rules:\n  - environments: {blocked: [production]}\n'),
      `cannot decide whether environment ${PROD} is blocked: the Steadybit Platform API has not answered yet`,
    ],
    [
      'an allowed list',
      policy('p', 'rules:\n  - environments: {allowed: [staging]}\n'),
      `cannot decide whether environment ${PROD} is one of the allowed environments: the Steadybit Platform API has not answered yet`,
    ],
    [
      'a condition reading environments',
      policy(
        'p',
        'rules:\n  - condition: {deny: {in: [production, {var: environments.names}]}, reason: no chaos in production}\n',
      ),
      'cannot decide: the condition reads environments, and the Steadybit Platform API has not answered yet; it guards: no chaos in production',
    ],
  ])('%s: denied, saying why', (_what, text, reason) => {
    const d = decideWith({ 'p.yaml': text }, unknown);
    expect(d.allowed).toBe(false);
    expect(result(d, 'p')?.reasons).toEqual([reason]);
    expect(result(d, 'p')?.findings?.[0].undecidable).toBe(true);
  });

  test.each([
    [
      'a policy not about environments',
      policy('p', 'match: {teams: [ADM]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
    ],
    [
      'a condition that reads no environment',
      policy('p', 'rules:\n  - condition: {deny: {">": [{var: targets.total}, 100000]}, reason: too many}\n'),
    ],
    [
      'a policy the id or an alias decides',
      policy('p', 'match: {environments: [payments]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
    ],
    [
      'a policy another field keeps out of scope',
      policy(
        'p',
        'match: {environments: [production], teams: [OTHER]}\nrules:\n  - environments: {blocked: [production]}\n',
      ),
    ],
    [
      'an exclude another field does not match',
      policy('p', 'exclude: {environments: [staging], teams: [OTHER]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
    ],
  ])('%s still decides', (_what, text) => {
    const d = decideWith({ 'p.yaml': text }, unknown);
    expect(d.allowed).toBe(true);
  });

  test('a blocked alias still blocks: known keys decide', () => {
    const d = decideWith({ 'p.yaml': policy('p', 'rules:\n  - environments: {blocked: [payments]}\n') }, unknown);
    expect(result(d, 'p')?.reasons).toEqual([`environment payments (${PROD}) is blocked`]);
  });

  test('the index visits every environment-filed policy: a name-filed one is not skipped unseen', () => {
    const files = {
      'p.yaml': policy('by-name', 'match: {environments: [production]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
    };
    const d = decideWith(files, unknown);
    expect(result(d, 'by-name')?.result).toBe('deny');
  });

  test('an exception cannot waive what depends on an unknown name', () => {
    const files = {
      'p.yaml': policy('p', 'match: {environments: [production]}\nrules:\n  - targets: {maxPerStep: 100000}\n'),
      'e.yaml':
        'kind: Exception\nname: e\npolicy: p\nowner: sre\nreason: test\nexpires: 2026-12-31T00:00:00Z\nmatch: {environments: [production]}\n',
    };
    expect(decideWith(files, unknown).allowed).toBe(false);
  });

  test('the bundle asks for environment names when a scope or rule names environments, and only then', () => {
    const needs = (text: string) =>
      bundleFrom({ 'p.yaml': text }, NOW).needs.filter((n) => n.kind === 'environment-names');
    expect(needs(policy('p', 'match: {environments: [x]}\nrules:\n  - targets: {maxPerStep: 100000}\n'))).toHaveLength(
      1,
    );
    expect(needs(policy('p', 'rules:\n  - environments: {blocked: [x]}\n'))).toHaveLength(1);
    expect(
      needs(policy('p', 'rules:\n  - condition: {deny: {in: [x, {var: environments.names}]}, reason: r}\n')),
    ).toHaveLength(1);
    expect(needs(policy('p', 'rules:\n  - targets: {maxPerStep: 100000}\n'))).toHaveLength(0);
    expect(
      needs(policy('p', 'rules:\n  - condition: {deny: {">": [{var: targets.total}, 1]}, reason: r}\n')),
    ).toHaveLength(0);
  });
});
