import type { GuardStop } from '../../src/guard/guard-stop';
import { runStoppedNotification } from '../../src/notify/event-notifications';

describe('a run the guard stopped', () => {
  it("is told from the guard's own stop record (its onStop hook): the stopping policies, not those that only report", () => {
    const stop: GuardStop = {
      executionId: '4711',
      experimentKey: 'ADM-12',
      team: 'ADM',
      environment: 'production',
      policy: 'critical-alerts',
      reason: 'alert CheckoutErrorBudgetBurn is firing',
      stoppedBy: [
        {
          policy: 'critical-alerts',
          mode: 'enforce',
          reason: 'alert CheckoutErrorBudgetBurn is firing',
          action: 'stop',
          cannotJudge: false,
        },
        { policy: 'business-hours', mode: 'warn', reason: 'outside 09:00-16:00', action: 'report', cannotJudge: false },
      ],
      decisionId: 'd-guard',
      allowedBy: 'd-first',
      at: '2026-03-07T10:02:11.000Z',
      revision: '3f9c2a1b7d4e',
    };
    expect(
      runStoppedNotification(stop, 'https://sb.example.com/experiments/{experimentKey}/executions/{executionId}'),
    ).toEqual({
      kind: 'stopped',
      time: '2026-03-07T10:02:11.000Z',
      title: 'Run 4711 of ADM-12 stopped while running by critical-alerts',
      message:
        'The run guard cancelled the run: policy "critical-alerts" no longer holds: alert CheckoutErrorBudgetBurn is firing',
      run: {
        executionId: 4711,
        experimentKey: 'ADM-12',
        team: 'ADM',
        environment: 'production',
        url: 'https://sb.example.com/experiments/ADM-12/executions/4711',
      },
      policies: [
        {
          policy: 'critical-alerts',
          mode: 'enforce',
          result: 'deny',
          reasons: ['alert CheckoutErrorBudgetBurn is firing'],
        },
      ],
      by: 'the run guard',
      decisionId: 'd-guard',
      revision: '3f9c2a1b7d4e',
    });
  });
});
