import { decisionNotifications } from '../../src/notify/decision-notifications';
import type { Notification } from '../../src/notify/notification';
import type { TargetFilter } from '../../src/notify/target-config';
import { matchesFilter } from '../../src/notify/target-filter';
import { decidedRun, runIn } from './decided-runs';

const OPTIONS = {
  redaction: { kind: 'none' as const },
  exceptionHelp: 'Ask #chaos.',
  runUrl: 'https://sb.example.com/{teamKey}/{executionId}',
};

/** The denial of the example run (team ADM), with its environment named "production" by the Platform API. */
function denial(): Notification {
  const run = decidedRun(runIn('kube-system'));
  const environment = run.payload.execution.environment as string;
  return decisionNotifications(
    { ...run, facts: { environments: { [environment]: { name: 'production' } } } },
    OPTIONS,
  )[0];
}

describe('what a target gets (filters)', () => {
  const n = denial();
  it.each<[string, TargetFilter, boolean]>([
    ['its event kind', { events: ['denied'] }, true],
    ['another event kind', { events: ['warned', 'stopped'] }, false],
    ['its team, in any case', { events: ['denied'], teams: ['adm'] }, true],
    ['another team', { events: ['denied'], teams: ['PAY'] }, false],
    ['its environment by the Steadybit name', { events: ['denied'], environments: ['Production'] }, true],
    [
      'its environment by the id sent',
      { events: ['denied'], environments: ['32009f6e-ff90-47a5-8daa-80f4bb7ae591'] },
      true,
    ],
    ['another environment', { events: ['denied'], environments: ['staging'] }, false],
    ['one of its policies', { events: ['denied'], policies: ['other', 'no-kube-system'] }, true],
    ['none of its policies', { events: ['denied'], policies: ['other'] }, false],
    ['the mode of its policy', { events: ['denied'], modes: ['enforce'] }, true],
    ['another mode', { events: ['denied'], modes: ['warn', 'audit'] }, false],
    [
      'every list matching',
      {
        events: ['denied'],
        teams: ['ADM'],
        environments: ['production'],
        policies: ['no-kube-system'],
        modes: ['enforce'],
      },
      true,
    ],
    [
      'all but one list matching',
      {
        events: ['denied'],
        teams: ['ADM'],
        environments: ['production'],
        policies: ['no-kube-system'],
        modes: ['warn'],
      },
      false,
    ],
  ])('%s: %s', (_what, filter, expected) => {
    expect(matchesFilter(filter, n)).toBe(expected);
  });

  it('holds notifications that concern every team (a rejected policy set, the emergency stop) only to their kind', () => {
    const rejected: Notification = {
      kind: 'policy-rejected',
      time: '2026-03-02T10:00:00Z',
      title: 't',
      message: 'm',
      policies: [],
      problems: ['p.yaml:1:1 x'],
    };
    expect(
      matchesFilter(
        { events: ['policy-rejected'], teams: ['PAY'], environments: ['staging'], policies: ['x'], modes: ['warn'] },
        rejected,
      ),
    ).toBe(true);
  });

  it('names the environment by its Steadybit name, links the run by NOTIFY_RUN_URL and keeps target values when redaction is off', () => {
    expect(n.run).toMatchObject({
      environment: '32009f6e-ff90-47a5-8daa-80f4bb7ae591',
      environmentName: 'production',
      url: 'https://sb.example.com/ADM/1',
    });
    expect(n.policies[0].reasons[0]).toContain('k8s.namespace=kube-system');
    expect(n.exceptionHelp).toBe('Ask #chaos.');
  });
});
