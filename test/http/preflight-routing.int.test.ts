import { createServer, request as httpRequest } from 'node:http';
import type { AddressInfo } from 'node:net';
import request from 'supertest';
import { rawPayload } from '../helpers/fixtures';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

// POST /preflight has its own node:http handler; every other request goes to Express. These pin
// the boundary: the paths Express matched still decide, everything else still gets Express's 404.
const bundle = bundleFrom({
  'blocked.yaml': 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n',
});
const spec = rawPayload('spec-execution-example-as-preflight.json');

describe('which requests the preflight handler answers', () => {
  test.each(['/preflight', '/preflight/', '/PREFLIGHT', '/Preflight/', '/preflight#fragment'])(
    'POST %s is decided',
    async (path) => {
      const { app } = testApp(bundle, { newId: () => 'd-1' });
      const res = await signedRequest(app, spec, { path });
      expect(res.status).toBe(200);
      expect(res.headers['x-preflight-decision-id']).toBe('d-1');
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(res.body.message).toMatch(/^Allowed: 1 of 1 policy applied/);
    },
  );

  test('the absolute form (POST http://host/preflight, as a proxy sends it) is decided', async () => {
    const { app } = testApp(bundle, { newId: () => 'd-abs' });
    const server = createServer(app).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const answer = await new Promise<{ status?: number; id: unknown }>((resolve, reject) => {
        const req = httpRequest(
          {
            host: '127.0.0.1',
            port,
            method: 'POST',
            path: 'http://gate.example/preflight',
            headers: { 'content-type': 'application/json' },
          },
          (res) => {
            res.resume();
            res.on('end', () => resolve({ status: res.statusCode, id: res.headers['x-preflight-decision-id'] }));
          },
        );
        req.on('error', reject);
        req.end(spec);
      });
      expect(answer).toEqual({ status: 200, id: 'd-abs' });
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  test.each<[string, string]>([
    ['GET', '/preflight'],
    ['PUT', '/preflight'],
    ['POST', '/preflight/extra'],
    ['POST', '/preflights'],
    ['POST', '/pre/flight'],
  ])('%s %s is not a preflight: 404 naming the webhook URL', async (method, path) => {
    const { app } = testApp(bundle);
    const res = await request(app)
      [method.toLowerCase() as 'get' | 'put' | 'post'](path)
      .set('content-type', 'application/json')
      .send('{}');
    expect(res.status).toBe(404);
    expect(res.headers['x-preflight-decision-id']).toBeUndefined();
    expect(res.body.message).toBe(`no route ${method} ${path}; Steadybit's preflight webhook URL is POST /preflight`);
  });

  test.each<[string, boolean]>([
    ['explain=true', true],
    ['explain=false', false],
    ['explain=TRUE', false],
    ['other=1&explain=true', true],
    ['explain=true&explain=true', true],
  ])('?%s explains the decision: %s', async (query, explained) => {
    const { app } = testApp(bundle);
    const res = await signedRequest(app, spec, { path: `/preflight?${query}` });
    expect(res.status).toBe(200);
    expect(res.body.explanation !== undefined).toBe(explained);
    if (explained)
      expect(res.body.explanation.results.map((r: { policy: string }) => r.policy)).toEqual(['blocked-environments']);
  });

  test('the preflight answers are timed under route="/preflight", the rest under their own route', async () => {
    const { app, metrics } = testApp(bundle);
    await signedRequest(app, spec, { path: '/PREFLIGHT/' });
    await request(app).get('/healthz');
    const text = await metrics.registry.metrics();
    expect(text).toContain('preflight_request_duration_seconds_count{route="/preflight",status="200"} 1');
    expect(text).toContain('preflight_request_duration_seconds_count{route="/healthz",status="200"} 1');
  });
});
