import type { PreflightPayload, Step } from '../../src/payload/types';
import { decideAt } from '../helpers/decide-harness';

const NOW = '2026-01-05T10:00:00Z';
const blockAttacks = `
kind: Policy
name: no-attacks
rules:
  - actions: {blockedKinds: [ATTACK]}
`;
const exception = (match: string) => `
kind: Exception
name: gameday
policy: no-attacks
owner: sre@example.com
reason: game day
expires: "2026-01-05T12:00:00Z"
match: ${match}
`;
const cpu: Step = { actionId: 'com.steadybit.extension_container.stress_cpu', actionKind: 'ATTACK' };
const shutdown: Step = { actionId: 'com.steadybit.extension_host.shutdown', actionKind: 'ATTACK' };
const check: Step = { actionId: 'com.steadybit.extension_http.check', actionKind: 'CHECK' };
const withSteps =
  (...steps: Step[]) =>
  (p: PreflightPayload) => {
    p.execution.steps = steps;
  };

describe('an exception waives only what it is known to reach (unknown never widens a waiver)', () => {
  test.each([
    [
      'a team exception does not waive a run that sends no team',
      '{teams: [ADM]}',
      (p: PreflightPayload) => {
        delete p.execution.teamKey;
      },
      false,
    ],
    ['a team exception waives a run of that team', '{teams: [ADM]}', () => undefined, true],
    [
      'an environment exception does not waive a run whose override names another environment',
      '{environments: [dev]}',
      (p: PreflightPayload) => {
        p.execution.environment = 'dev';
        p.execution.overrides = { environment: 'prod' };
      },
      false,
    ],
    [
      'an environment exception waives a run that only touches that environment',
      '{environments: [dev]}',
      (p: PreflightPayload) => {
        p.execution.environment = 'dev';
      },
      true,
    ],
    [
      'a step exception does not waive a violation on another step',
      '{actionIds: ["*stress_cpu"]}',
      withSteps(cpu, shutdown),
      false,
    ],
    [
      'a step exception does not waive a step whose action id is unknown',
      '{actionIds: ["*stress_cpu"]}',
      withSteps(cpu, { actionKind: 'ATTACK' }),
      false,
    ],
    [
      'a kind exception does not waive a step whose kind is unknown',
      '{actionKinds: [CHECK]}',
      withSteps({ actionId: 'com.steadybit.extension_host.shutdown', radius: { targetType: 'host' } }),
      false,
    ],
    [
      'a step exception waives its step when the other steps do not violate',
      '{actionIds: ["*stress_cpu"]}',
      withSteps(cpu, check),
      true,
    ],
  ])('%s', (_name, match, change, waived) => {
    const d = decideAt({ 'p.yaml': blockAttacks, 'e.yaml': exception(match) }, NOW, change);
    expect(d.allowed).toBe(waived);
    expect(d.results[0].result).toBe(waived ? 'skipped' : 'deny');
  });

  test('a step exception does not waive a run-level violation while a step in scope is outside it', () => {
    const runLevel = `
kind: Policy
name: no-attacks
rules:
  - condition: {deny: {in: [ATTACK, {var: steps.actionKinds}]}, reason: "attacks are not allowed"}
`;
    const files = { 'p.yaml': runLevel, 'e.yaml': exception('{actionIds: ["*stress_cpu"]}') };
    expect(decideAt(files, NOW, withSteps(cpu, shutdown)).allowed).toBe(false);
    expect(decideAt(files, NOW, withSteps(cpu)).allowed).toBe(true);
  });
});

describe('exclude: a run is excluded only when everything it touches is excluded', () => {
  const outsideDev = `
kind: Policy
name: no-attacks
exclude: {environments: [dev]}
rules:
  - actions: {blockedKinds: [ATTACK]}
`;
  test.each([
    ['a run in dev with an override to prod is not excluded', 'prod', false],
    ['a run in dev with an override to dev is excluded', 'dev', true],
  ])('%s', (_name, override, allowed) => {
    const d = decideAt({ 'p.yaml': outsideDev }, NOW, (p) => {
      p.execution.environment = 'dev';
      p.execution.overrides = { environment: override };
    });
    expect(d.allowed).toBe(allowed);
  });
});
