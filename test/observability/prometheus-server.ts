import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../helpers/child-service';
import { freePort } from '../helpers/server-process';

export interface PromSample {
  metric: Record<string, string>;
  value: [number, string];
}
export type QueryResult =
  | { status: 'success'; data: { resultType: string; result: PromSample[] } }
  | { status: 'error'; error: string; errorType: string };

export interface PrometheusServer {
  url: string;
  query(promql: string): Promise<QueryResult>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A real Prometheus (the Debian package's binary) on a free 127.0.0.1 port, scraping `targets`
 * every second, with its TSDB in a temp dir that stop() removes.
 */
export async function startPrometheus(job: string, targets: string[]): Promise<PrometheusServer> {
  const dir = mkdtempSync(join(tmpdir(), 'prometheus-'));
  const config = join(dir, 'prometheus.yml');
  writeFileSync(
    config,
    [
      'global: {scrape_interval: 1s, evaluation_interval: 1s}',
      'scrape_configs:',
      `  - job_name: ${job}`,
      '    static_configs:',
      `      - targets: [${targets.map((t) => `"${t}"`).join(', ')}]`,
      '',
    ].join('\n'),
  );
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = await startChildService({
    command: 'prometheus',
    args: [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    dir,
    what: `prometheus on ${url} to be ready`,
    ready: async () => (await fetch(`${url}/-/ready`)).status === 200,
    timeoutMs: 20000,
  });
  return {
    url,
    output: service.log,
    stop: service.stop,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      return (await res.json()) as QueryResult;
    },
  };
}
