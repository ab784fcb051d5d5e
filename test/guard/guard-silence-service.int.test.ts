import { signedPost } from '../helpers/signed-post';
import { waitFor } from '../helpers/server-process';
import { cancels, runningOnFake } from './guard-harness';
import { guardedRun, guardedServiceEachTest, guardHealth } from './guarded-service-each-test';

jest.setTimeout(60_000);

const SECRET = 'guard-silence-service-secret';
const RUN = 4712;
const known = { labels: { alertname: 'KnownIssue', severity: 'critical', environment: 'production' } };
const critical = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'production' } };

const service = guardedServiceEachTest(SECRET);
/** Lets the clock pass the last moment read, so what is made next is later by Alertmanager's clock too. */
const afterThisMillisecond = async () => {
  const at = Date.now();
  await waitFor(async () => Date.now() > at + 1, 'the clock to move on', 1000);
};

test('the built service: a silence from before the run hides its alert, one made mid-run does not, and the run is cancelled', async () => {
  // A known critical alert, silenced before the run was created.
  await service.am.silence('alertname', 'KnownIssue');
  await service.am.post([known]);
  await afterThisMillisecond();
  const running = await service.start({ GUARD_INTERVAL_SECONDS: '1' });
  const payload = guardedRun(RUN);
  payload.execution.created = new Date().toISOString();
  runningOnFake(service.fake, RUN);
  try {
    // The silence from before hides the known alert at the door and at the guard's ticks.
    expect((await signedPost(`${running.url}/preflight`, payload, SECRET)).status).toBe(200);
    await waitFor(async () => ((await guardHealth(running)).lastTick?.runs ?? 0) >= 1, 'a tick over the run');
    await afterThisMillisecond();
    expect(cancels(service.fake)).toHaveLength(0);

    // Mid-run, a step (or anyone) silences the alert it is about to cause: the guard still sees it.
    const silence = await service.am.silence('alertname', 'CheckoutDown');
    await service.am.post([critical]);
    await waitFor(async () => cancels(service.fake, RUN).length > 0, 'the cancel of the run', 15_000);
    await waitFor(async () => (await guardHealth(running)).stops === 1, 'the stop on /readyz');
    expect(running.output()).toContain(`guard: stopped run ${RUN}`);
    expect(running.output()).toContain(`silenced by ${silence}, made or changed after the run started`);
    expect(running.output()).not.toContain('KnownIssue');
  } finally {
    await service.am.resolve([known, critical]);
  }
});
