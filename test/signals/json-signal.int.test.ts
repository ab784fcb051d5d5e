import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { PreflightPayload, Target } from '../../src/payload/types';
import { decide } from '../../src/policy/engine/decide';
import type { Facts } from '../../src/policy/facts/facts';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { validateSignalFacts } from '../../src/policy/facts/validate-signal-facts';
import type { SignalsConfig } from '../../src/signals/signal-source';
import { NOW, problemsOf, policyDocument } from '../helpers/decide-harness';
import { FIXTURES } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';
import { apiSchemaErrors } from '../helpers/api-schemas';

const DOC = readFileSync(join(__dirname, '..', '..', 'docs', 'attacked-services.md'), 'utf8');
/** The copy-paste preset named `name` in docs/attacked-services.md, as written. */
const preset = (name: string): string => {
  const found = [...DOC.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((m) => m[1])
    .find((y) => y.includes(`name: ${name}\n`));
  if (!found) throw new Error(`no preset ${name}`);
  return found;
};
const answer = (file: string) =>
  JSON.parse(readFileSync(join(FIXTURES, 'json-signals', file), 'utf8')) as Record<string, unknown>;
const PODS = JSON.parse(readFileSync(join(FIXTURES, 'steadybit-targets', 'k8s-pods.json'), 'utf8')) as Target[];
const RUN = JSON.parse(
  readFileSync(join(__dirname, '..', '..', 'examples', 'attacked-services', 'run.json'), 'utf8'),
) as PreflightPayload;

/** The example run (one checkout and one cart pod) with labels Argo CD and PagerDuty setups put on pods. */
function run(): PreflightPayload {
  const p = structuredClone(RUN);
  const [checkout, cart] = [structuredClone(PODS[0]), structuredClone(PODS[3])];
  checkout.attributes?.push(
    { key: 'k8s.pod.label.pagerduty.com/service-id', value: 'PCHKOUT' },
    { key: 'k8s.pod.label.app.kubernetes.io/instance', value: 'checkout' },
  );
  cart.attributes?.push(
    { key: 'k8s.pod.label.pagerduty.com/service-id', value: 'PCART01' },
    { key: 'k8s.pod.label.app.kubernetes.io/instance', value: 'cart' },
  );
  (p.execution.steps ?? [])[0].targetExecutions = [checkout, cart];
  return p;
}

/**
 * Local fakes of PagerDuty, Opsgenie and Argo CD answering as their public docs describe, each
 * checking its auth header; `state` decides what is open.
 */
interface FakeState {
  pdIncidentOn: string[];
  opsgenieTag: string[];
  argo: Record<string, { phase: string; health: string }>;
}
/** The official schema of each answer the fakes give (test/fixtures/api-schemas/), by route and status. */
function schemaOf(pathname: string, status: number): [string, string] | undefined {
  const ok = status < 400;
  if (pathname === '/incidents') return ['pagerduty-incidents', ok ? 'ListIncidentsResponse' : 'ErrorResponse'];
  if (pathname === '/v2/alerts') return ['opsgenie-alerts', ok ? 'ListAlertsResponseRoot' : 'ErrorResponseRoot'];
  if (pathname.startsWith('/api/v1/applications/'))
    return ['argocd-application', ok ? 'GetApplicationResponse' : 'ErrorResponseRoot'];
  return undefined;
}

/** Every answer the fakes gave that does not fit the API's official schema (asserted empty). */
const offSchema: string[] = [];

function fake(state: FakeState, seen: string[]): Server {
  let pathname = '';
  const send = (res: import('node:http').ServerResponse, status: number, body: unknown) => {
    const schema = schemaOf(pathname, status);
    if (schema)
      offSchema.push(...apiSchemaErrors(schema[0], schema[1], body).map((e) => `${pathname} ${status}: ${e}`));
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  return createServer((req: IncomingMessage, res) => {
    const url = new URL(req.url ?? '/', 'http://fake');
    pathname = url.pathname;
    seen.push(`${req.headers.authorization} ${url.pathname}${url.search}`);
    if (url.pathname === '/incidents') {
      if (req.headers.authorization !== 'Token token=pd-test')
        return send(res, 401, { error: { message: 'Unauthorized', code: 2006 } });
      const ids = url.searchParams.getAll('service_ids[]');
      const statuses = url.searchParams.getAll('statuses[]');
      const base = answer('pagerduty-incidents.json') as {
        incidents: Array<{ service: { id: string }; status: string }>;
      };
      const incidents = ids.flatMap((id) =>
        state.pdIncidentOn.includes(id) ? base.incidents.map((i) => ({ ...i, service: { ...i.service, id } })) : [],
      );
      return send(res, 200, { ...base, incidents: incidents.filter((i) => statuses.includes(i.status)) });
    }
    if (url.pathname === '/v2/alerts') {
      if (req.headers.authorization !== 'GenieKey og-test')
        return send(res, 401, { message: 'Could not authenticate', took: 0, requestId: 'r' });
      const tag = /tag:(\S+)/.exec(url.searchParams.get('query') ?? '')?.[1] ?? '';
      const base = answer('opsgenie-alerts.json') as { data: unknown[] };
      return send(res, 200, { ...base, data: state.opsgenieTag.includes(tag) ? base.data : [] });
    }
    const app = /^\/api\/v1\/applications\/([^/]+)$/.exec(url.pathname)?.[1];
    if (app !== undefined) {
      if (req.headers.authorization !== 'Bearer argo-test')
        return send(res, 401, { error: 'invalid session', code: 16, message: 'invalid session' });
      const s = state.argo[decodeURIComponent(app)];
      if (!s)
        return send(res, 404, { error: 'not found', code: 5, message: `applications.argoproj.io "${app}" not found` });
      const base = answer('argocd-application.json') as {
        metadata: object;
        status: { operationState: object; health: object };
      };
      return send(res, 200, {
        ...base,
        metadata: { ...base.metadata, name: app },
        status: {
          ...base.status,
          health: { status: s.health },
          operationState: { ...base.status.operationState, phase: s.phase },
        },
      });
    }
    send(res, 404, { error: 'no such route' });
  });
}

describe('the json rule and its documented presets against local fakes of PagerDuty, Opsgenie and Argo CD', () => {
  const state: FakeState = {
    pdIncidentOn: [],
    opsgenieTag: [],
    argo: { checkout: { phase: 'Succeeded', health: 'Healthy' }, cart: { phase: 'Succeeded', health: 'Healthy' } },
  };
  const seen: string[] = [];
  let server: Server;
  let config: SignalsConfig;

  beforeAll(async () => {
    server = fake(state, seen);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    config = {
      sources: [
        {
          kind: 'json',
          name: 'pagerduty',
          url,
          auth: { type: 'header', name: 'Authorization', value: 'Token token=pd-test' },
        },
        {
          kind: 'json',
          name: 'opsgenie',
          url,
          auth: { type: 'header', name: 'Authorization', value: 'GenieKey og-test' },
        },
        { kind: 'json', name: 'argocd', url, auth: { type: 'bearer', token: 'argo-test' } },
      ],
      cacheTtlMs: 0,
      timeoutMs: 2000,
    };
  });
  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve));
  });

  afterEach(() => {
    // Each answer a fake gave (incidents, alerts, applications, and their 401 / 404 errors) fits the official schema.
    expect(offSchema.splice(0)).toEqual([]);
  });

  /** Gathers the facts for the preset as the service does, then decides; the facts must fit the facts schema (replayable). */
  async function decideWith(policy: string, payload = run()) {
    const bundle = bundleFrom({ 'p.yaml': policy }, NOW);
    const facts = await signalFactSource(createSignalGatherer({ config })).gather(bundle.needs, payload, NOW);
    if (!facts.ok) throw new Error('facts not gathered');
    expect(validateSignalFacts(JSON.parse(JSON.stringify(facts.facts.signals)))).toEqual(
      expect.objectContaining({ ok: true }),
    );
    const decision = decide(bundle, payload, facts.facts as Facts, NOW, { decisionId: 'd-1' });
    return { decision, signals: facts.facts.signals };
  }

  it('PagerDuty: asks once per attacked service id, allows while none has an open incident, denies naming it', async () => {
    seen.length = 0;
    expect((await decideWith(preset('no-attack-during-pagerduty-incident'))).decision.allowed).toBe(true);
    expect(seen).toEqual([
      'Token token=pd-test /incidents?statuses[]=triggered&statuses[]=acknowledged&service_ids[]=PCHKOUT',
      'Token token=pd-test /incidents?statuses[]=triggered&statuses[]=acknowledged&service_ids[]=PCART01',
    ]);
    state.pdIncidentOn = ['PCART01'];
    const { decision } = await decideWith(preset('no-attack-during-pagerduty-incident'));
    expect(decision.allowed).toBe(false);
    expect(decision.results[0].reasons).toEqual([
      expect.stringMatching(
        /^an attacked service has an open PagerDuty incident: GET \/incidents\?statuses\[\]=triggered&statuses\[\]=acknowledged&service_ids\[\]=PCART01 on json "pagerduty" \(read [^)]+\) answered \["checkout: 5xx above 2%"\]$/,
      ),
    ]);
    state.pdIncidentOn = [];
  });

  it('Opsgenie: an open alert tagged with an attacked deployment denies', async () => {
    expect((await decideWith(preset('no-attack-during-opsgenie-alert'))).decision.allowed).toBe(true);
    state.opsgenieTag = ['cart'];
    const { decision, signals } = await decideWith(preset('no-attack-during-opsgenie-alert'));
    expect(decision.results[0].reasons[0]).toMatch(
      /^an attacked deployment has an open Opsgenie alert: GET \/v2\/alerts\?query=status%3Aopen%20AND%20tag%3Acart on json "opsgenie" .* answered \["cart p99 latency above 800 ms"\]$/,
    );
    expect(Object.keys(signals?.json?.opsgenie ?? {})).toEqual([
      '/v2/alerts?query=status%3Aopen%20AND%20tag%3Acheckout',
      '/v2/alerts?query=status%3Aopen%20AND%20tag%3Acart',
    ]);
    state.opsgenieTag = [];
  });

  it.each([
    ['syncing', { phase: 'Running', health: 'Healthy' }, 'sync Synced, health Healthy, operation Running'],
    ['degraded', { phase: 'Succeeded', health: 'Degraded' }, 'sync Synced, health Degraded, operation Succeeded'],
  ])('Argo CD: an attacked application %s denies', async (_name, app, detail) => {
    state.argo.cart = app;
    const { decision } = await decideWith(preset('no-attack-while-argocd-syncs'));
    expect(decision.results[0].reasons).toEqual([
      expect.stringContaining(`GET /api/v1/applications/cart on json "argocd"`),
    ]);
    expect(decision.results[0].reasons[0]).toContain(`answered ${detail}`);
    state.argo.cart = { phase: 'Succeeded', health: 'Healthy' };
  });

  it('Argo CD: healthy and synced passes; an unknown application (404) cannot decide', async () => {
    expect((await decideWith(preset('no-attack-while-argocd-syncs'))).decision.allowed).toBe(true);
    const payload = run();
    for (const a of (payload.execution.steps ?? [])[0].targetExecutions?.[1].attributes ?? [])
      if (a.key === 'k8s.pod.label.app.kubernetes.io/instance') a.value = 'gone';
    const { decision } = await decideWith(preset('no-attack-while-argocd-syncs'), payload);
    expect(decision.results[0].reasons).toEqual([
      expect.stringMatching(
        /^cannot decide: GET \/api\/v1\/applications\/gone on json "argocd" could not be read \(HTTP 404: /,
      ),
    ]);
  });

  it('a wrong credential is an error answer: cannot decide, or allowed with a warning under onUnavailable: allow', async () => {
    const wrong = {
      ...config,
      sources: config.sources.map((s) =>
        s.name === 'argocd' ? { ...s, auth: { type: 'bearer' as const, token: 'expired' } } : s,
      ),
    };
    const bundle = bundleFrom(
      { 'p.yaml': preset('no-attack-while-argocd-syncs').replace('reason:', 'onUnavailable: allow\n      reason:') },
      NOW,
    );
    const facts = await signalFactSource(createSignalGatherer({ config: wrong })).gather(bundle.needs, run(), NOW);
    const decision = decide(bundle, run(), (facts.ok ? facts.facts : {}) as Facts, NOW, { decisionId: 'd-1' });
    expect(decision.allowed).toBe(true);
    expect(decision.results[0].result).toBe('warn');
    expect(decision.results[0].reasons[0]).toMatch(
      /could not be read \(HTTP 401: .*\); allowed anyway because the policy says onUnavailable: allow$/,
    );
  });

  it('the same facts decide the same way when replayed (pinned as eval --signals would)', async () => {
    state.pdIncidentOn = ['PCHKOUT'];
    const { decision, signals } = await decideWith(preset('no-attack-during-pagerduty-incident'));
    state.pdIncidentOn = [];
    const replayed = decide(
      bundleFrom({ 'p.yaml': preset('no-attack-during-pagerduty-incident') }, NOW),
      run(),
      { signals: JSON.parse(JSON.stringify(signals)) } as Facts,
      NOW,
      { decisionId: 'd-1' },
    );
    expect(replayed.results).toEqual(decision.results);
  });
});

describe('json rule: load errors', () => {
  it.each([
    [
      'a path without a leading /',
      'json: {path: "incidents", denyWhen: true, reason: r}',
      'the path must start with /',
    ],
    [
      'a data path outside the answer',
      'json: {path: "/x", denyWhen: {var: "execution.teamKey"}, reason: r}',
      'unknown data "execution"',
    ],
    [
      'a forbidden operator',
      'json: {path: "/x", denyWhen: {method: [{var: "body"}, "toString"]}, reason: r}',
      'method',
    ],
    ['no reason', 'json: {path: "/x", denyWhen: true}', 'reason'],
    [
      'whenMissing without a target placeholder',
      'json: {path: "/x", denyWhen: true, reason: r, whenMissing: allow}',
      'whenMissing is about targets',
    ],
  ])('%s', (_name, rule, message) => {
    expect(
      problemsOf(policyDocument(rule))
        .map((p) => p.message)
        .join('\n'),
    ).toContain(message);
  });
});
