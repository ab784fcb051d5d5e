import { loadBundle } from '../../src/policy/loading/load-bundle';
import { decide as decideRun } from '../../src/policy/engine/decide';
import type { RunRef, StateView } from '../../src/state/state-store';
import { stateQuery } from '../../src/state/state-fact-source';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

const NOW = Date.parse('2026-01-05T10:00:00Z');
const MIN = 60_000;
const policy = (rule: string) => ({ 'p.yaml': `kind: Policy\nname: memory\nrules:\n  - ${rule}\n` });
/** The spec's example run: execution 1 of team ADM, here in environment prod. */
const run = preflightWith((p) => {
  p.execution.environment = 'prod';
});
const runs = (...specs: Array<[string | number, number, RunRef['state']?]>): RunRef[] =>
  specs.map(([id, agoMs, state]) => ({ id: String(id), atMs: NOW - agoMs, ...(state ? { state } : {}) }));

const decide = (rule: string, state: StateView | undefined) =>
  decideRun(bundleFrom(policy(rule)), run, { state }, new Date(NOW), { decisionId: 'd-1' });

describe('rule kinds on the state from POST /events', () => {
  test.each([
    [
      'emergencyStop: engaged denies, naming who and since when',
      'emergencyStop: {}',
      { emergencyStop: { engaged: true, by: 'jane', since: '2026-01-05T09:58:00.000000000Z' } },
      'the emergency stop is engaged (by jane since 2026-01-05T09:58:00.000000000Z)',
    ],
    ['emergencyStop: disengaged allows', 'emergencyStop: {}', { emergencyStop: { engaged: false } }, undefined],
    [
      'concurrency: another run in the environment denies',
      'concurrency: {maxRunning: 1}',
      { running: { 'environment:prod': runs([9, 5 * MIN]) } },
      'environment prod already has 1 running execution (at most 1): 9 (since 2026-01-05T09:55:00.000Z)',
    ],
    [
      'concurrency: the run itself does not count against its cap',
      'concurrency: {maxRunning: 1}',
      { running: { 'environment:prod': runs([1, MIN]) } },
      undefined,
    ],
    [
      'concurrency: under the cap allows',
      'concurrency: {maxRunning: 2}',
      { running: { 'environment:prod': runs([9, MIN]) } },
      undefined,
    ],
    [
      'concurrency per team counts the team',
      'concurrency: {maxRunning: 1, per: team}',
      { running: { 'team:adm': runs([9, MIN]), 'environment:prod': [] } },
      'team ADM already has 1 running execution',
    ],
    [
      'cooldown: a FAILED run 10 minutes ago denies for 30m',
      'cooldown: {duration: 30m}',
      { ended: { 'environment:prod': runs([7, 10 * MIN, 'FAILED']) } },
      'environment prod is cooling down: execution 7 ended FAILED at 2026-01-05T09:50:00.000Z; runs may start again after 2026-01-05T10:20:00.000Z (cool-down 30m)',
    ],
    [
      'cooldown: an ERRORED run counts by default',
      'cooldown: {duration: 30m}',
      { ended: { 'environment:prod': runs([7, 10 * MIN, 'ERRORED']) } },
      'ended ERRORED',
    ],
    [
      'cooldown: a COMPLETED run does not count by default',
      'cooldown: {duration: 30m}',
      { ended: { 'environment:prod': runs([7, 10 * MIN, 'COMPLETED']) } },
      undefined,
    ],
    [
      'cooldown: a failure older than the duration allows',
      'cooldown: {duration: 30m}',
      { ended: { 'environment:prod': runs([7, 31 * MIN, 'FAILED']) } },
      undefined,
    ],
    [
      'cooldown: `after` chooses the states',
      'cooldown: {after: [CANCELED], duration: 1h}',
      { ended: { 'environment:prod': runs([7, 10 * MIN, 'CANCELED']) } },
      'ended CANCELED',
    ],
    [
      'cooldown: the latest matching end is named',
      'cooldown: {duration: 1h}',
      { ended: { 'environment:prod': runs([5, 50 * MIN, 'FAILED'], [6, 20 * MIN, 'ERRORED']) } },
      'execution 6 ended ERRORED',
    ],
    [
      'cooldown: an end recorded under the run\'s own id (payload 1, facts "1") does not count',
      'cooldown: {duration: 1h}',
      { ended: { 'environment:prod': runs([1, 10 * MIN, 'FAILED']) } },
      undefined,
    ],
    [
      'cooldown: the run itself is skipped, an earlier failure still counts',
      'cooldown: {duration: 1h}',
      { ended: { 'environment:prod': runs([5, 50 * MIN, 'FAILED'], [1, 10 * MIN, 'ERRORED']) } },
      'execution 5 ended FAILED',
    ],
    [
      'quota: a full window denies and says when a slot frees',
      'quota: {maxRuns: 2, window: 1d}',
      { started: { 'team:adm': runs([5, 23 * 60 * MIN], [6, MIN]) } },
      'team ADM started 2 runs in the last 1 day (quota 2); the next run may start after 2026-01-05T11:00:00.000Z',
    ],
    [
      'quota: the run itself is not counted',
      'quota: {maxRuns: 2, window: 1d}',
      { started: { 'team:adm': runs([5, MIN], [1, 0]) } },
      undefined,
    ],
    [
      'quota: runs outside the rolling window do not count',
      'quota: {maxRuns: 1, window: 1h}',
      { started: { 'team:adm': runs([5, 61 * MIN]) } },
      undefined,
    ],
    [
      'a rule whose state was not loaded cannot decide',
      'quota: {maxRuns: 1, window: 1h}',
      undefined,
      'cannot decide: the started executions state was not loaded',
    ],
  ])('%s', (_name, rule, state, denial) => {
    const decision = decide(rule, state as StateView | undefined);
    expect(decision.allowed).toBe(denial === undefined);
    if (denial !== undefined) expect(decision.message).toContain(denial);
  });

  test('a run without a team cannot be decided by a per-team rule', () => {
    const noTeam = preflightWith((p) => {
      delete p.execution.teamKey;
    });
    const decision = decideRun(
      bundleFrom(policy('quota: {maxRuns: 1, window: 1h}')),
      noTeam,
      { state: { started: {} } },
      new Date(NOW),
      { decisionId: 'd' },
    );
    expect(decision.message).toContain('cannot decide: the payload names no team');
  });

  test.each([
    ['a zero cool-down', 'cooldown: {duration: 0m}', 'duration must be more than 0 and at most 31d, got "0m"'],
    ['a cool-down longer than the history kept', 'cooldown: {duration: 32d}', 'at most 31d'],
    [
      'a window that is not a duration',
      'quota: {maxRuns: 1, window: 1 day}',
      'window "1 day" is not a duration: write an amount with a unit',
    ],
    [
      'a window without a unit (a bare number would read as milliseconds elsewhere)',
      'quota: {maxRuns: 1, window: "3600"}',
      'window "3600" is not a duration: write an amount with a unit',
    ],
    [
      'a window longer than the history kept',
      'quota: {maxRuns: 1, window: 5w}',
      'window must be more than 0 and at most 31d, got "5w"',
    ],
    ['a cap of zero', 'concurrency: {maxRunning: 0}', 'maxRunning must be >= 1'],
    [
      'an unknown end state',
      'cooldown: {after: [BROKEN], duration: 1h}',
      'must be one of COMPLETED, FAILED, ERRORED, CANCELED',
    ],
    ['an unknown scope', 'concurrency: {maxRunning: 1, per: cluster}', 'must be one of environment, team'],
  ])('%s is a load error', (_name, rule, message) => {
    const result = loadBundle([{ file: 'p.yaml', text: policy(rule)['p.yaml'] }]);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.problems.map((p) => `${p.path} ${p.message}`).join('\n')).toContain(message);
  });

  test('a preflight reads only the state the rules need, as far back as the longest window', () => {
    const bundle = bundleFrom({
      'p.yaml':
        'kind: Policy\nname: memory\nrules:\n  - cooldown: {duration: 30m}\n  - quota: {maxRuns: 5, window: 1d}\n  - quota: {maxRuns: 2, window: 1h}\n',
    });
    expect(bundle.needs).toEqual([
      { kind: 'ended', per: 'environment', windowMs: 30 * MIN },
      { kind: 'started', per: 'team', windowMs: 1440 * MIN },
      { kind: 'started', per: 'team', windowMs: 60 * MIN },
    ]);
    expect(stateQuery(bundle.needs, run.execution, NOW)).toEqual({
      emergencyStop: false,
      running: false,
      scopes: ['team:adm', 'environment:prod'],
      endedSinceMs: NOW - 30 * MIN,
      startedSinceMs: NOW - 1440 * MIN,
    });
    // Per team only: the environment's runs are not read.
    const perTeam = bundleFrom({
      'p.yaml': 'kind: Policy\nname: memory\nrules:\n  - quota: {maxRuns: 2, window: 1h}\n',
    });
    expect(stateQuery(perTeam.needs, run.execution, NOW)).toEqual({
      emergencyStop: false,
      running: false,
      scopes: ['team:adm'],
      startedSinceMs: NOW - 60 * MIN,
    });
  });
});

describe('state rule durations use the policy duration grammar', () => {
  test.each([['1w'], ['1.5h'], ['1d12h'], ['90m']])('cooldown %s and quota window %s load', (text) => {
    expect(loadBundle([{ file: 'p.yaml', text: policy(`cooldown: {duration: "${text}"}`)['p.yaml'] }]).ok).toBe(true);
    expect(loadBundle([{ file: 'p.yaml', text: policy(`quota: {maxRuns: 1, window: "${text}"}`)['p.yaml'] }]).ok).toBe(
      true,
    );
  });
});
