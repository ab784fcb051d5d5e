import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createTlsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Registry } from 'prom-client';
import { createAnswerCache } from '../../src/signals/answer-cache';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { createSignalMetrics } from '../../src/signals/signal-metrics';
import type { SignalSource, SignalsConfig } from '../../src/signals/signal-source';

type Handler = (req: IncomingMessage, res: ServerResponse) => void;
const listen = async (server: Server): Promise<string> => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return `127.0.0.1:${(server.address() as AddressInfo).port}`;
};
const close = (server: Server) =>
  new Promise((resolve) => {
    server.closeAllConnections();
    server.close(resolve);
  });
const json = (res: ServerResponse, status: number, body: unknown) => {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};
const vector = { status: 'success', data: { resultType: 'vector', result: [{ metric: {}, value: [1, '0.5'] }] } };

describe('gathering signal facts', () => {
  let server: Server;
  let handler: Handler = (_req, res) => json(res, 200, []);
  const seen: IncomingMessage[] = [];
  let base: string;
  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push(req);
      handler(req, res);
    });
    base = `http://${await listen(server)}`;
  });
  afterAll(() => close(server));
  beforeEach(() => {
    seen.length = 0;
  });

  const gatherer = (
    source: Partial<SignalSource> = {},
    config: Partial<SignalsConfig> = {},
    registry = new Registry(),
  ) => {
    const full: SignalsConfig = {
      sources: [
        { kind: 'prometheus', name: 'default', url: base, ...source },
        { kind: 'alertmanager', name: 'default', url: base, ...source },
      ],
      cacheTtlMs: 10000,
      timeoutMs: 1000,
      ...config,
    };
    return createSignalGatherer({
      config: full,
      metrics: createSignalMetrics(registry, full),
      clock: () => new Date('2026-01-05T10:00:00Z'),
    });
  };

  it('asks Alertmanager API v2 for every unresolved alert and Prometheus /api/v1/query, with the bearer token', async () => {
    handler = (req, res) =>
      json(
        res,
        200,
        req.url?.startsWith('/api/v2/alerts')
          ? [
              {
                labels: { alertname: 'A' },
                startsAt: '2026-01-05T09:00:00Z',
                status: { state: 'active', silencedBy: [], inhibitedBy: [] },
              },
            ]
          : vector,
      );
    const facts = await gatherer({ auth: { type: 'bearer', token: 'tkn' } })([
      { kind: 'alerts', source: 'default' },
      { kind: 'prometheus', source: 'default', query: 'up == 0' },
    ]);
    expect(facts).toEqual({
      alertmanager: {
        default: {
          readAt: '2026-01-05T10:00:00.000Z',
          alerts: [
            {
              labels: { alertname: 'A' },
              startsAt: '2026-01-05T09:00:00Z',
              status: { state: 'active', silencedBy: [], inhibitedBy: [] },
            },
          ],
        },
      },
      prometheus: {
        default: {
          'up == 0': {
            readAt: '2026-01-05T10:00:00.000Z',
            resultType: 'vector',
            result: [{ metric: {}, value: [1, '0.5'] }],
          },
        },
      },
    });
    expect(seen.map((r) => r.url).sort()).toEqual([
      '/api/v1/query?query=up+%3D%3D+0&timeout=1s',
      '/api/v2/alerts?active=true&silenced=true&inhibited=true&unprocessed=true',
    ]);
    expect(seen.map((r) => r.headers.authorization)).toEqual(['Bearer tkn', 'Bearer tkn']);
  });

  it('sends basic auth', async () => {
    handler = (_req, res) => json(res, 200, vector);
    await gatherer({ auth: { type: 'basic', username: 'u', password: 'p:w' } })([
      { kind: 'prometheus', source: 'default', query: 'up' },
    ]);
    expect(seen[0].headers.authorization).toBe(`Basic ${Buffer.from('u:p:w').toString('base64')}`);
  });

  it('a burst of preflights asking the same costs one query; the answer is kept for the cache time', async () => {
    handler = (_req, res) => setTimeout(() => json(res, 200, vector), 50);
    const registry = new Registry();
    const gather = gatherer({}, {}, registry);
    const need = [{ kind: 'prometheus' as const, source: 'default', query: 'up' }];
    const burst = await Promise.all(Array.from({ length: 20 }, () => gather(need)));
    await gather(need);
    expect(seen).toHaveLength(1);
    expect(new Set(burst.map((f) => JSON.stringify(f))).size).toBe(1);
    const text = await registry.metrics();
    expect(text).toContain('preflight_signal_queries_total{kind="prometheus",source="default",outcome="ok"} 1');
    expect(text).toContain('preflight_signal_cache_hits_total{kind="prometheus",source="default"} 20');
    expect(text).toMatch(/preflight_signal_query_duration_seconds_count\{kind="prometheus",source="default"\} 1/);
  });

  it('asks again after the cache time, and never keeps an error', async () => {
    let t = 0;
    const cache = createAnswerCache(1000, () => t);
    const gather = createSignalGatherer({
      config: { sources: [{ kind: 'prometheus', name: 'default', url: base }], cacheTtlMs: 1000, timeoutMs: 1000 },
      cache,
    });
    const need = [{ kind: 'prometheus' as const, source: 'default', query: 'up' }];
    handler = (_req, res) => json(res, 503, { status: 'error', errorType: 'unavailable', error: 'starting' });
    expect(await gather(need)).toEqual({
      prometheus: { default: { up: expect.objectContaining({ error: 'unavailable: starting' }) } },
    });
    handler = (_req, res) => json(res, 200, vector);
    await gather(need);
    await gather(need);
    expect(seen).toHaveLength(2);
    t = 1001;
    await gather(need);
    expect(seen).toHaveLength(3);
  });

  it.each<[string, Handler, RegExp]>([
    [
      'a refused query',
      (_q, res) => json(res, 400, { status: 'error', errorType: 'bad_data', error: 'parse error at char 3' }),
      /^bad_data: parse error at char 3$/,
    ],
    ['a 401', (_q, res) => json(res, 401, { message: 'no' }), /^HTTP 401: \{"message":"no"\}$/],
    [
      'not JSON',
      (_q, res) => {
        res.writeHead(200);
        res.end('<html>login</html>');
      },
      /^HTTP 200: the answer is not JSON \(an HTML page: login\)$/,
    ],
    ['not the Prometheus API', (_q, res) => json(res, 200, { hello: 1 }), /is not a Prometheus query result/],
    [
      'too slow',
      () => {
        /* never answers */
      },
      /^no answer within 300 ms$/,
    ],
    [
      'a sample value that is not a number',
      (_q, res) =>
        json(res, 200, {
          status: 'success',
          data: { resultType: 'vector', result: [{ metric: {}, value: [1, 'abc'] }] },
        }),
      /^a sample value is not a number: \{"metric":\{\},"value":\[1,"abc"\]\}$/,
    ],
    [
      'a scalar value that is not a number',
      (_q, res) => json(res, 200, { status: 'success', data: { resultType: 'scalar', result: [1, '16,2'] } }),
      /^the scalar value is not a number/,
    ],
  ])('%s is an error answer, never a throw', async (_what, h, error) => {
    handler = h;
    const facts = await gatherer({}, { timeoutMs: 300 })([{ kind: 'prometheus', source: 'default', query: 'up' }]);
    const answer = facts.prometheus?.default.up;
    expect(answer && 'error' in answer ? answer.error : answer).toMatch(error);
  });

  it('an Alertmanager answer that is not a list of alerts is an error', async () => {
    handler = (_req, res) => json(res, 200, { alerts: [] });
    expect(await gatherer()([{ kind: 'alerts', source: 'default' }])).toEqual({
      alertmanager: { default: expect.objectContaining({ error: expect.stringMatching(/not a list of alerts/) }) },
    });
  });

  it('a source that is not configured is an error answer naming how to configure it', async () => {
    expect(await gatherer()([{ kind: 'alerts', source: 'eu' }])).toEqual({
      alertmanager: {
        eu: expect.objectContaining({
          error: 'alertmanager "eu" is not configured (docs/signals.md: ALERTMANAGER_URL or SIGNAL_SOURCES_FILE)',
        }),
      },
    });
    expect(seen).toHaveLength(0);
  });

  it('a json source that is not configured names SIGNAL_SOURCES_FILE, the only place json sources are set', async () => {
    const facts = await gatherer()([{ kind: 'json', source: 'change-calendar', path: '/freezes.ics' }]);
    expect(JSON.stringify(facts)).toContain(
      'json \\"change-calendar\\" is not configured (docs/signals.md: a json source in SIGNAL_SOURCES_FILE)',
    );
    expect(JSON.stringify(facts)).not.toContain('JSON_URL');
  });
});

describe('https with a private CA', () => {
  let dir: string;
  let server: Server;
  let url: string;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'signals-tls-'));
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        join(dir, 'key.pem'),
        '-out',
        join(dir, 'cert.pem'),
      ],
      { stdio: 'ignore' },
    );
    server = createTlsServer(
      { key: readFileSync(join(dir, 'key.pem')), cert: readFileSync(join(dir, 'cert.pem')) },
      (_req, res) => json(res, 200, vector),
    );
    url = `https://${await listen(server)}`;
  });
  afterAll(async () => {
    await close(server);
    rmSync(dir, { recursive: true, force: true });
  });

  it('trusts the configured CA, and refuses a certificate it does not trust', async () => {
    const gather = (ca?: string) =>
      createSignalGatherer({
        config: { sources: [{ kind: 'prometheus', name: 'default', url, ca }], cacheTtlMs: 0, timeoutMs: 2000 },
      })([{ kind: 'prometheus', source: 'default', query: 'up' }]);
    expect((await gather(readFileSync(join(dir, 'cert.pem'), 'utf8'))).prometheus?.default.up).toEqual(
      expect.objectContaining({ resultType: 'vector' }),
    );
    expect((await gather()).prometheus?.default.up).toEqual(
      expect.objectContaining({ error: expect.stringMatching(/self.signed certificate/) }),
    );
  });
});
