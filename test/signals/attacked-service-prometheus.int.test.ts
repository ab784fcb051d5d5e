import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/payload/types';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { waitFor } from '../helpers/server-process';
import { signedRequest } from '../helpers/signed-request';
import { testApp } from '../helpers/test-app';
import { bundleFrom } from '../helpers/bundle-from';
import { startPrometheus, type PrometheusServer } from '../observability/prometheus-server';

jest.setTimeout(60000);

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'attacked-services');
const POLICY = readFileSync(join(EXAMPLES, 'attacked-service-error-budget.yaml'), 'utf8');
/** The example run: deletes one checkout and one cart pod (targets as Steadybit's Kubernetes extension sends them). */
const run = (): PreflightPayload => JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;

describe('the attacked-service error budget starter policy against a real Prometheus', () => {
  let prom: PrometheusServer;
  let target: Server;
  const budget: Record<string, number> = { checkout: 0.42, cart: 0.9, search: -0.5 };
  let app: ReturnType<typeof testApp>;
  const queried: string[] = [];

  beforeAll(async () => {
    // Sloth's metadata recording rule, one series per service, as a scrape target.
    target = createServer((_req, res) => {
      res.setHeader('content-type', 'text/plain; version=0.0.4');
      res.end(
        [
          '# TYPE slo:period_error_budget_remaining:ratio gauge',
          ...Object.entries(budget).map(
            ([s, v]) =>
              `slo:period_error_budget_remaining:ratio{sloth_id="${s}-availability",sloth_service="${s}",sloth_slo="availability"} ${v}`,
          ),
          '',
        ].join('\n'),
      );
    });
    await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
    prom = await startPrometheus('sloth', [`127.0.0.1:${(target.address() as AddressInfo).port}`]);
    await waitFor(
      async () => JSON.stringify(await prom.query('slo:period_error_budget_remaining:ratio')).includes('"cart"'),
      'the first scrape',
      20000,
    );
    const gather = createSignalGatherer({
      config: { sources: [{ kind: 'prometheus', name: 'default', url: prom.url }], cacheTtlMs: 0, timeoutMs: 2000 },
    });
    const counting: typeof gather = (needs) => {
      const list = [...needs];
      queried.push(...list.map((n) => (n.kind === 'prometheus' ? n.query : n.kind)));
      return gather(list);
    };
    app = testApp(bundleFrom({ 'budget.yaml': POLICY }), { factSources: [signalFactSource(counting)] });
  });
  afterAll(async () => {
    await prom?.stop();
    await new Promise((resolve) => target?.close(resolve));
  });

  it('asks one query per attacked deployment and allows while both have budget left', async () => {
    queried.length = 0;
    const res = await signedRequest(app.app, run(), { query: { explain: 'true' } });
    expect(res.status).toBe(200);
    expect(queried).toEqual([
      'slo:period_error_budget_remaining:ratio{sloth_service="checkout"}',
      'slo:period_error_budget_remaining:ratio{sloth_service="cart"}',
    ]);
    const reads = res.body.explanation.results.find(
      (r: { policy: string }) => r.policy === 'attacked-service-error-budget',
    ).signals;
    expect(reads.map((r: { query: string }) => r.query)).toEqual(queried);
  });

  it('denies once an attacked service has spent its budget, naming it; an unattacked one does not matter', async () => {
    budget.cart = -0.03;
    await waitFor(
      async () => (await signedRequest(app.app, run())).status === 403,
      'the spent budget to be scraped',
      15000,
    );
    const denied = await signedRequest(app.app, run());
    expect(denied.body.message).toMatch(
      /^Denied by 1 policy: \[attacked-service-error-budget\] query slo:period_error_budget_remaining:ratio\{sloth_service="cart"\} on prometheus "default" returned \{__name__="slo:period_error_budget_remaining:ratio",instance="127\.0\.0\.1:\d+",job="sloth",sloth_id="cart-availability",…\} -0\.03 <= 0 \(read /,
    );
    budget.cart = 0.9;
    await waitFor(async () => (await signedRequest(app.app, run())).status === 200, 'the budget to recover', 15000);
  });

  it('a deployment without an SLO series cannot be judged', async () => {
    const payload = run();
    const pod = payload.execution.steps?.[0].targetExecutions?.[0];
    for (const a of pod?.attributes ?? []) if (a.key === 'k8s.deployment') a.value = 'no-slo';
    const res = await signedRequest(app.app, payload);
    expect(res.status).toBe(403);
    expect(res.body.message).toContain(
      'cannot decide: query slo:period_error_budget_remaining:ratio{sloth_service="no-slo"} on prometheus "default" returned no samples to compare with <= 0 (onEmpty: deny)',
    );
  });
});
