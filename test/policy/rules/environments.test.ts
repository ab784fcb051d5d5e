import { decide as decideRun } from '../../../src/policy/engine/decide';
import { bundleFrom } from '../../helpers/bundle-from';
import { preflightWith } from '../../helpers/fixtures';

const aliases = `
kind: EnvironmentAliases
aliases:
  production: [aaaaaaaa-0000-4000-8000-000000000001]
`;
const blocked = `
kind: Policy
name: blocked-envs
rules:
  - environments: { blocked: [production] }
`;
const allowed = `
kind: Policy
name: allowed-envs
rules:
  - environments: { allowed: [staging] }
`;

const decide = (files: Record<string, string>, env: string | undefined, override?: string) =>
  decideRun(
    bundleFrom(files),
    preflightWith((p) => {
      p.execution.environment = env;
      if (override) p.execution.overrides = { environment: override };
    }),
    {},
    new Date('2026-01-05T10:00:00Z'),
    { decisionId: 'd-1' },
  );

describe('environments rule', () => {
  test.each([
    ['blocked by alias id', { aliases, blocked }, 'aaaaaaaa-0000-4000-8000-000000000001', undefined, false],
    ['blocked by name, any case', { blocked }, 'Production', undefined, false],
    ['other environment passes', { aliases, blocked }, 'bbbbbbbb-0000-4000-8000-000000000002', undefined, true],
    ['override into a blocked environment', { aliases, blocked }, 'staging', 'production', false],
    ['allowed list passes', { allowed }, 'staging', undefined, true],
    ['outside the allowed list', { allowed }, 'dev', undefined, false],
    ['override outside the allowed list', { allowed }, 'staging', 'prod', false],
    ['missing environment cannot be decided', { blocked }, undefined, undefined, false],
  ])('%s', (_name, files, env, override, allow) => {
    const decision = decide(files, env, override);
    expect(decision.allowed).toBe(allow);
    if (!allow) expect(decision.message).toMatch(/\[(blocked|allowed)-envs\]/);
  });

  test('a run without an environment is denied as undecidable, saying so', () => {
    const d = decide({ blocked }, undefined);
    expect(d.allowed).toBe(false);
    expect(d.message).toContain(
      '[blocked-envs] cannot decide: the payload names no environment (execution.environment is missing)',
    );
  });

  test('names the alias and the id it matched', () => {
    const d = decide({ aliases, blocked }, 'aaaaaaaa-0000-4000-8000-000000000001');
    expect(d.message).toContain('environment production (aaaaaaaa-0000-4000-8000-000000000001) is blocked');
  });
});
