import request from 'supertest';
import { loadConfig } from '../../src/service/config';
import { readPlaygroundPage } from '../../src/playground/playground-page';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';

/** The service's /playground/ (PLAYGROUND=on): the built page (npm run build), nothing else. */
const bundle = bundleFrom({ 'p.yaml': 'kind: Policy\nname: p\nrules:\n  - environments: { blocked: [prod] }\n' });

describe('GET /playground/ with PLAYGROUND=on', () => {
  const { app } = testApp(bundle, { playground: readPlaygroundPage() });

  test('the page, its script and style sheet, with a CSP that allows no connection', async () => {
    const page = await request(app).get('/playground/');
    expect(page.status).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.text).toContain('id="result"');
    expect(page.headers['content-security-policy']).toContain("connect-src 'none'");
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    const script = await request(app).get('/playground/playground.js');
    expect([script.status, script.headers['content-type']]).toEqual([200, 'text/javascript; charset=utf-8']);
    // The CSP allows no eval: the schemas come compiled (scripts/build-validators.js), ajv's compiler is not in the page.
    expect(script.text).not.toMatch(/new Function\b|\beval\(/);
    expect((await request(app).get('/playground/playground.css')).status).toBe(200);
  });

  test('/playground redirects to /playground/ (the page loads its files relative to it), keeping a query', async () => {
    const res = await request(app).get('/playground?x=1');
    expect([res.status, res.headers.location]).toEqual([301, '/playground/?x=1']);
  });

  test('anything else below it is the usual 404', async () => {
    const res = await request(app).get('/playground/secrets.yaml');
    expect(res.status).toBe(404);
    expect(res.body.message).toMatch(/no route GET/);
  });
});

test('off by default: no /playground route', async () => {
  expect((await request(testApp(bundle).app).get('/playground/')).status).toBe(404);
});

test('PLAYGROUND is on or off; anything else stops start-up naming it', () => {
  expect(loadConfig({}).playground).toBe(false);
  expect(loadConfig({ PLAYGROUND: 'on' }).playground).toBe(true);
  expect(() => loadConfig({ PLAYGROUND: 'yes' })).toThrow(/PLAYGROUND must be one of on, off, got "yes"/);
});
