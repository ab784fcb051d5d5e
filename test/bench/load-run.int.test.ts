import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createFloorServer } from '../../bench/floor-app';
import { runLoad } from '../../bench/load-run';
import { expectedStatuses, payloadVariants } from '../../bench/payload-variants';
import { verifySignature } from '../../src/signature/verify-signature';
import { bundleFrom } from '../helpers/bundle-from';

const SECRET = 'test-secret';
const variants = payloadVariants(SECRET);
let server: Server;
let url: string;

beforeAll(async () => {
  server = await new Promise<Server>((resolve) => {
    const s = createFloorServer([SECRET]).listen(0, '127.0.0.1', () => resolve(s));
  });
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('benchmark payloads and load run', () => {
  test('every variant is signed over exactly the bytes sent', () => {
    for (const v of variants) expect(verifySignature(v.signature, v.body, [SECRET])).toEqual({ ok: true, secret: 0 });
  });

  test('the expected statuses are the engine decisions: only the payments-prod run is denied here', async () => {
    const bundle = bundleFrom({
      'aliases.yaml': 'kind: EnvironmentAliases\naliases:\n  payments-prod: [4f1c2a9e-0000-4000-8000-000000000002]\n',
      'blocked.yaml': 'kind: Policy\nname: blocked\nrules:\n  - environments: { blocked: [payments-prod] }\n',
    });
    expect(await expectedStatuses(variants, bundle)).toEqual(
      variants.map((v) => (v.name.includes('payments-prod') ? 403 : 200)),
    );
    expect(await expectedStatuses(variants, undefined)).toEqual(variants.map(() => 200));
  });

  test('the floor answers every variant as expected', async () => {
    const figures = await runLoad(
      url,
      variants,
      variants.map(() => 200),
      { connections: 2, warmupSeconds: 0.2, seconds: 0.5 },
      () => process.cpuUsage().user / 1e6,
    );
    expect(figures.requests).toBeGreaterThan(0);
    expect(figures).toMatchObject({ unexpected: 0, status5xx: 0, errors: 0 });
    expect(figures.coreUsePercent).toBeGreaterThan(0);
    expect(figures.stealPercent).toBeGreaterThanOrEqual(0);
    expect(figures.stealPercent).toBeLessThanOrEqual(100);
  });

  test("CPU per request and core use come from the target's CPU clock over the measured run", async () => {
    // A target clock read once before and once after the measured run: 0.2 s of CPU in between.
    const readings = [10, 10.2];
    const figures = await runLoad(
      url,
      variants,
      variants.map(() => 200),
      { connections: 1, warmupSeconds: 0.1, seconds: 0.5 },
      () => readings.shift() ?? Number.NaN,
    );
    expect(readings).toEqual([]);
    expect(figures.cpuMicrosPerRequest * figures.requests).toBeCloseTo(200_000, 0);
    // 0.2 s over a run of at least 0.5 s: at most 40% of a core, and far above 0.
    expect(figures.coreUsePercent).toBeLessThanOrEqual(40);
    expect(figures.coreUsePercent).toBeGreaterThan(1);
  });

  test('an answer other than the expected status is counted', async () => {
    const expected = variants.map((_v, i) => (i === 0 ? 403 : 200));
    const figures = await runLoad(
      url,
      variants,
      expected,
      { connections: 1, warmupSeconds: 0.2, seconds: 0.5 },
      () => 0,
    );
    expect(figures.perPayload[0]).toBeGreaterThan(0);
    expect(figures.unexpected).toBe(figures.perPayload[0]);
    expect(figures.status5xx).toBe(0);
  });
});
