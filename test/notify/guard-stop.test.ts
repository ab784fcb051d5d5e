import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GuardStop } from '../../src/guard/guard-stop';
import { runStoppedNotification } from '../../src/notify/event-notifications';
import { notifiedRun } from '../../src/notify/decision-notifications';
import { messageFacts } from '../../src/notify/formats/message-parts';
import { webhookBody } from '../../src/notify/formats/webhook-body';
import type { Notification } from '../../src/notify/notification';
import { ROOT } from '../helpers/server-process';
import { preflightWith } from '../helpers/fixtures';

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

describe("a stop names the run's environment as a denial does", () => {
  const ID = '32009f6e-ff90-47a5-8daa-80f4bb7ae591';
  const stop = (named: Partial<GuardStop>): GuardStop => ({
    executionId: '4711',
    experimentKey: 'ADM-12',
    team: 'ADM',
    environment: ID,
    policy: 'critical-alerts',
    reason: 'alert CheckoutErrorBudgetBurn is firing',
    stoppedBy: [{ policy: 'critical-alerts', mode: 'enforce', reason: 'firing', action: 'stop', cannotJudge: false }],
    decisionId: 'd-guard',
    allowedBy: 'd-first',
    at: '2026-03-07T10:02:11.000Z',
    revision: '3f9c2a1b7d4e',
    ...named,
  });
  const environmentLine = (n: Notification) =>
    messageFacts({ id: 'm', notification: n, count: 1, firstTime: n.time, lastTime: n.time }).find(
      (f) => f.label === 'Environment',
    )?.value;
  const validWebhookBody = (() => {
    const ajv = new Ajv({ allErrors: true, strict: false });
    addFormats(ajv);
    const validate = ajv.compile(
      JSON.parse(readFileSync(join(ROOT, 'docs', 'notification-webhook.schema.json'), 'utf8')),
    );
    return (n: Notification) =>
      validate(JSON.parse(webhookBody({ id: 'm', notification: n, count: 1, firstTime: n.time, lastTime: n.time })))
        ? undefined
        : ajv.errorsText(validate.errors);
  })();
  const UNKNOWN = `environment ${ID} is not one of the 3 environments the Steadybit Platform API lists (read 2026-03-07T10:00:00.000Z)`;
  const denialIn = (environments: Record<string, { name: string } | { unknown: string }>) =>
    notifiedRun(
      preflightWith((p) => {
        p.execution.environment = ID;
      }),
      { environments },
      undefined,
    );

  it('its Steadybit name beside the id, the same line as a denial of a run there', () => {
    const n = runStoppedNotification(stop({ environmentName: 'production' }));
    expect(n.run).toMatchObject({ environment: ID, environmentName: 'production' });
    expect(environmentLine(n)).toBe(`production (${ID})`);
    expect(environmentLine(n)).toBe(environmentLine({ ...n, run: denialIn({ [ID]: { name: 'production' } }) }));
    expect(validWebhookBody(n)).toBeUndefined();
  });

  it('a name that cannot be known: the id and why, as a denial says it', () => {
    const n = runStoppedNotification(stop({ environmentNameUnknown: UNKNOWN }));
    expect(n.run).toMatchObject({ environment: ID, environmentNameUnknown: UNKNOWN });
    expect(n.run?.environmentName).toBeUndefined();
    expect(environmentLine(n)).toBe(`${ID} (Steadybit name unknown: ${UNKNOWN})`);
    expect(environmentLine(n)).toBe(environmentLine({ ...n, run: denialIn({ [ID]: { unknown: UNKNOWN } }) }));
    expect(validWebhookBody(n)).toBeUndefined();
  });
});
