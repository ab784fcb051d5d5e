import { EnvironmentDirectory } from '../../src/platform/environment-directory';
import { createPlatformClient } from '../../src/platform/platform-client';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { fakePlatformConfig } from '../helpers/fake-platform-config';

const PROD = '2f0b0ab4-7c52-4b8e-9a0e-2d0a3b7a1c11';
const NEW = '9d1e0c55-3f6a-4b7e-8c2d-5a4b3c2d1e0f';

let fake: FakeSteadybit;
let nowMs: number;
fakeSteadybitEachTest((started) => {
  fake = started;
  fake.environments = [environment(PROD, 'production'), environment('5b8c1f0e-1111-4c4c-9d9d-0a0a0a0a0a0a', 'staging')];
  nowMs = Date.parse('2026-03-02T10:00:00Z');
});

function directory(timing: Partial<{ maxAgeMs: number; waitMs: number; minGapMs: number }> = {}) {
  const config = fakePlatformConfig(fake);
  const client = createPlatformClient(config, { random: () => 0, now: () => nowMs });
  return new EnvironmentDirectory(
    client,
    { maxAgeMs: 3600_000, waitMs: 2000, minGapMs: 10_000, ...timing },
    undefined,
    () => nowMs,
  );
}

test('an id resolves to its name; a name as sent resolves to itself', async () => {
  const dir = directory();
  const names = await dir.resolve([PROD.toUpperCase(), 'Staging']);
  expect([...names.values()]).toEqual([
    { known: true, name: 'production' },
    { known: true, name: 'staging' },
  ]);
  expect(fake.calls('/api/environments')).toHaveLength(1);
  await dir.resolve([PROD]);
  expect(fake.calls('/api/environments')).toHaveLength(1);
});

test('an id not seen before refreshes the list once, however many preflights ask at once', async () => {
  const dir = directory();
  await dir.resolve([PROD]);
  fake.environments.push(environment(NEW, 'payments-prod'));
  nowMs += 60_000;
  fake.faults.push({ path: '/api/environments', delayMs: 200 });
  const answers = await Promise.all(Array.from({ length: 20 }, () => dir.resolve([NEW])));
  expect(answers.every((a) => a.get(NEW)?.known)).toBe(true);
  expect(fake.calls('/api/environments')).toHaveLength(2);
});

test('an id the platform does not list is unknown, with a reason; asking again within the gap sends nothing', async () => {
  const dir = directory();
  await dir.resolve([PROD]);
  nowMs += 60_000;
  const first = await dir.resolve([NEW]);
  expect(first.get(NEW)).toEqual({
    known: false,
    reason: `environment ${NEW} is not one of the 2 environments the Steadybit Platform API lists (read 2026-03-02T10:01:00.000Z)`,
  });
  nowMs += 1000;
  await dir.resolve([NEW]);
  expect(fake.calls('/api/environments')).toHaveLength(2);
});

test('an id not seen before while the platform is down: unknown, naming the failed refresh', async () => {
  const dir = directory();
  await dir.resolve([PROD]);
  nowMs += 60_000;
  fake.down = true;
  expect((await dir.resolve([NEW])).get(NEW)).toMatchObject({
    known: false,
    reason: expect.stringMatching(
      new RegExp(`^environment ${NEW} is not one of the 2 environments .*; reading the list again failed: .*HTTP 503`),
    ),
  });
  expect((await dir.resolve([PROD])).get(PROD)).toEqual({ known: true, name: 'production' });
});

test('API down and nothing cached: unknown, saying why', async () => {
  fake.down = true;
  const dir = directory();
  const names = await dir.resolve([PROD]);
  expect(names.get(PROD)?.known).toBe(false);
  expect(names.get(PROD)).toMatchObject({
    reason: expect.stringContaining('the Steadybit Platform API has not answered yet (HTTP 503'),
  });
});

test('a slow platform holds a preflight at most the wait bound; the refresh still fills the cache', async () => {
  fake.faults.push({ path: '/api/environments', delayMs: 600 });
  const dir = directory({ waitMs: 100 });
  const names = await dir.resolve([PROD]);
  expect(names.get(PROD)?.known).toBe(false);
  await new Promise((r) => setTimeout(r, 800));
  expect((await dir.resolve([PROD])).get(PROD)).toEqual({ known: true, name: 'production' });
});

test('a cached name is used while younger than the maximum age, then no longer', async () => {
  const dir = directory({ maxAgeMs: 600_000 });
  await dir.resolve([PROD]);
  fake.down = true;
  nowMs += 599_000;
  expect((await dir.resolve([PROD])).get(PROD)).toEqual({ known: true, name: 'production' });
  nowMs += 2000;
  const late = (await dir.resolve([PROD])).get(PROD);
  expect(late).toMatchObject({
    known: false,
    reason: expect.stringContaining(
      'last read from the Steadybit Platform API 601 s ago, longer than STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS (600 s)',
    ),
  });
  fake.answers.length = 0;
});
