import { join } from 'node:path';
import { ROOT } from '../helpers/server-process';
import { runCli, tempDir } from '../cli/run-cli';

const EXAMPLES = join(ROOT, 'examples', 'attacked-services');
const env = { EMERGENCY_STOP_POLICY: 'off' };
const budget = (service: string, value: string) => ({
  [`slo:period_error_budget_remaining:ratio{sloth_service="${service}"}`]: {
    resultType: 'vector',
    result: [{ metric: { sloth_service: service }, value: [1767607198, value] }],
  },
});
/** `eval --explain` of the example run at 10:00 UTC, with `signals` as the signal facts file. */
function evalWithSignals(signals: object) {
  const facts = join(tempDir({ 'signals.json': JSON.stringify(signals) }).dir, 'signals.json');
  const args = ['--payload', join(EXAMPLES, 'run.json'), '--dir', EXAMPLES, '--signals', facts];
  return runCli(['eval', ...args, '--now', '2026-01-05T10:00:00Z', '--explain'], { env });
}

describe('signals about the attacked services from the CLI', () => {
  it('the example suite passes (examples/attacked-services/attacked-services.test.yaml)', () => {
    const res = runCli(['test', EXAMPLES], { env });
    expect(res.stdout).toMatch(/6 passed, 0 failed/);
    expect(res.code).toBe(0);
  });

  it('eval takes the per-service answers as signal facts and explains what each query read', () => {
    const res = evalWithSignals({
      prometheus: { default: { ...budget('checkout', '0.5'), ...budget('cart', '0') } },
    });
    expect(res.stdout).toMatch(/^DENY \(HTTP 403\)/);
    expect(res.stdout).toContain(
      'query slo:period_error_budget_remaining:ratio{sloth_service="cart"} on prometheus "default" returned {sloth_service="cart"} 0 <= 0',
    );
    expect(res.stdout).toContain('slo:period_error_budget_remaining:ratio{sloth_service="checkout"}');
  });

  it('eval takes a calendar answer as signal facts and lists it among the signals read', () => {
    const res = evalWithSignals({
      prometheus: { default: { ...budget('checkout', '0.5'), ...budget('cart', '0.7') } },
      json: {
        'change-calendar': {
          '/freezes.ics': {
            readAt: '2026-01-05T09:59:58.000Z',
            status: 200,
            body: {
              now: '2026-01-05T10:00:00.000Z',
              timeZone: 'Europe/Berlin',
              events: [
                {
                  uid: 'q1@example.com',
                  summary: 'Q1 planning freeze',
                  start: '2026-01-04T23:00:00.000Z',
                  end: '2026-01-09T23:00:00.000Z',
                  allDay: true,
                  categories: ['freeze'],
                },
              ],
            },
          },
        },
      },
    });
    expect(res.stdout).toMatch(/^DENY \(HTTP 403\)/);
    expect(res.stdout).toContain(
      'a change freeze is on: GET /freezes.ics on json "change-calendar" (read 2026-01-05T09:59:58.000Z) answered ["Q1 planning freeze until 2026-01-09T23:00:00.000Z"]',
    );
    expect(res.stdout).toContain(
      'json "change-calendar" GET /freezes.ics -> HTTP 200, 1 event going on at 2026-01-05T10:00:00.000Z (read 2026-01-05T09:59:58.000Z)',
    );
  });
});
