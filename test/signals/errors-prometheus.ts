import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { waitFor } from '../helpers/server-process';
import { startPrometheus, type PrometheusServer } from '../observability/prometheus-server';

/**
 * A scrape target serving `preflight_test_errors{deployment="<d>"}` from `errors` as it is at each
 * scrape (a test changes it to let a service recover or relapse), a real Prometheus scraping it as
 * job `errors`, and its first scrape (of deployment `cart`) awaited. Its `stop` stops the target too.
 */
export async function startErrorsPrometheus(errors: Record<string, number>): Promise<PrometheusServer> {
  const target = createServer((_req, res) => {
    res.setHeader('content-type', 'text/plain; version=0.0.4');
    res.end(
      [
        '# TYPE preflight_test_errors gauge',
        ...Object.entries(errors).map(([d, v]) => `preflight_test_errors{deployment="${d}"} ${v}`),
        '',
      ].join('\n'),
    );
  });
  await new Promise<void>((resolve) => target.listen(0, '127.0.0.1', resolve));
  const closeTarget = () => new Promise<void>((resolve) => target.close(() => resolve()));
  const address = `127.0.0.1:${(target.address() as AddressInfo).port}`;
  const prom = await startPrometheus('errors', [address]).catch(async (e: unknown) => {
    await closeTarget();
    throw e;
  });
  const stop = async () => {
    await prom.stop();
    await closeTarget();
  };
  await waitFor(
    async () => JSON.stringify(await prom.query('preflight_test_errors')).includes('"cart"'),
    'the first scrape',
    20000,
  ).catch(async (e: unknown) => {
    await stop();
    throw e;
  });
  return { ...prom, stop };
}
