import { EnvironmentDirectory } from '../../src/platform/environment-directory';
import { environmentFactSource } from '../../src/platform/environment-fact-source';
import { createPlatformClient } from '../../src/platform/platform-client';
import { preflightWith } from '../helpers/fixtures';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

/**
 * Issue 21 item 5: no Platform API call holds a preflight answer past STEADYBIT_PREFLIGHT_WAIT_MS.
 * Proven by order, not by timing: the gate answers while the fake still holds the API's answer back.
 */
const SECRET = 'wait-bound-secret';
const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
const NEW = '9d1e0c55-3f6a-4b7e-8c2d-5a4b3c2d1e0f';
const POLICIES = { 'p.yaml': 'kind: Policy\nname: no-production\nrules:\n  - environments: {blocked: [production]}\n' };

let fake: FakeSteadybit;
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(PROD, 'production')];
});

function gate() {
  const config = fakePlatformConfig(fake, { timeoutMs: 5000 });
  const directory = new EnvironmentDirectory(createPlatformClient(config), {
    maxAgeMs: 3600_000,
    waitMs: 150,
    minGapMs: 10_000,
  });
  const { app } = testApp(bundleFrom(POLICIES), { secrets: [SECRET], factSources: [environmentFactSource(directory)] });
  return { app, directory };
}
const inEnvironment = (id: number, env: string) =>
  preflightWith((p) => {
    p.execution.id = id;
    p.execution.environment = env;
  });
const environmentAnswers = () => fake.answers.filter((a) => a.path === '/api/environments').length;

test('a platform slower than the wait bound: the preflight is answered first, cannot decide, saying why; the late answer still fills the cache', async () => {
  fake.faults.push({ path: '/api/environments', delayMs: 4000 });
  const { app, directory } = gate();
  const res = await signedRequest(app, inEnvironment(1, PROD), { secret: SECRET });
  expect(environmentAnswers()).toBe(0);
  expect(fake.calls('/api/environments')).toHaveLength(1);
  expect(res.status).toBe(403);
  expect(res.body.message).toContain(
    `cannot decide whether environment ${PROD} is blocked: the Steadybit Platform API has not answered yet`,
  );
  await directory.refresh();
  expect(environmentAnswers()).toBe(1);
  const later = await signedRequest(app, inEnvironment(2, PROD), { secret: SECRET });
  expect(later.body.message).toContain(`environment production (${PROD}) is blocked`);
});

test('a known id is decided from the cache without any API call, however slow the platform is', async () => {
  const { app, directory } = gate();
  await directory.refresh();
  fake.faults.push({ path: '/api/environments', delayMs: 5000, times: 10 });
  const sent = fake.requests.length;
  const res = await signedRequest(app, inEnvironment(3, PROD), { secret: SECRET });
  expect(res.status).toBe(403);
  expect(res.body.message).toContain(`environment production (${PROD}) is blocked`);
  expect(fake.requests.length).toBe(sent);
  fake.faults.length = 0;
});

test('an id not seen before on a slow platform: cached names stand for the others, the new one cannot be decided', async () => {
  const { app, directory } = gate();
  await directory.refresh();
  fake.environments.push(environment(NEW, 'production-eu'));
  fake.faults.push({ path: '/api/environments', delayMs: 4000 });
  const res = await signedRequest(app, inEnvironment(4, NEW), { secret: SECRET });
  expect(environmentAnswers()).toBe(1);
  expect(res.status).toBe(403);
  expect(res.body.message).toContain(
    `cannot decide whether environment ${NEW} is blocked: environment ${NEW} is not one of the 1 environments`,
  );
  const known = await signedRequest(app, inEnvironment(5, PROD), { secret: SECRET });
  expect(known.body.message).toContain(`environment production (${PROD}) is blocked`);
  await directory.refresh();
});
