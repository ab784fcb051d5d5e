import { signedPost } from '../helpers/signed-post';
import { waitFor } from '../helpers/server-process';
import { cancels, runningOnFake } from './guard-harness';
import { guardedRun, guardedServiceEachTest, guardHealth } from './guarded-service-each-test';

jest.setTimeout(60_000);

const SECRET = 'guard-stop-bound-secret';
const RUN = 4711;
const INTERVAL_S = 1;
const SIGNAL_TIMEOUT_MS = 1000;
/** docs/guard.md's bound: a stop is asked for within one interval plus SIGNAL_TIMEOUT_MS of an alert firing. */
const BOUND_MS = INTERVAL_S * 1000 + SIGNAL_TIMEOUT_MS;
/** Room for a loaded machine (and the cancel call): the old guard, reading through the cache, needed up to 300 s. */
const MARGIN_MS = 10_000;
const critical = { labels: { alertname: 'CheckoutDown', severity: 'critical', environment: 'production' } };

// The service stops before the fake does, and the alert is resolved for the next test.
const service = guardedServiceEachTest(SECRET, (am) => am.resolve([critical]));

test('an alert that fires mid-run stops it within GUARD_INTERVAL_SECONDS + SIGNAL_TIMEOUT_MS, though SIGNAL_CACHE_TTL_MS is 300 s', async () => {
  const running = await service.start({
    SIGNAL_CACHE_TTL_MS: '300000',
    SIGNAL_TIMEOUT_MS: String(SIGNAL_TIMEOUT_MS),
    GUARD_INTERVAL_SECONDS: String(INTERVAL_S),
  });
  const payload = guardedRun(RUN);
  runningOnFake(service.fake, RUN);
  // Allowed at the door, which reads "no alerts" into the preflights' cache for 300 s.
  expect((await signedPost(`${running.url}/preflight`, payload, SECRET)).status).toBe(200);
  // The guard has judged the run since: it goes on.
  await waitFor(async () => ((await guardHealth(running)).lastTick?.runs ?? 0) >= 1, 'a tick over the run');
  expect(cancels(service.fake)).toHaveLength(0);

  await service.am.post([critical]);
  const posted = Date.now();
  await waitFor(async () => cancels(service.fake, RUN).length > 0, 'the cancel of the run', BOUND_MS + MARGIN_MS);
  const tookMs = Date.now() - posted;
  expect(tookMs).toBeLessThan(BOUND_MS + MARGIN_MS);
  await waitFor(async () => (await guardHealth(running)).stops === 1, 'the stop on /readyz');
  expect(running.output()).toContain(`guard: stopped run ${RUN}`);
});
