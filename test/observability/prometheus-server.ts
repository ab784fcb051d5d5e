import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../helpers/server-process';

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
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${config}`,
      `--storage.tsdb.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => (await fetch(`${url}/-/ready`)).status === 200, `prometheus to be ready:\n${out}`, 20000);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    url,
    output: () => out,
    stop,
    async query(promql) {
      const res = await fetch(`${url}/api/v1/query?${new URLSearchParams({ query: promql })}`);
      return (await res.json()) as QueryResult;
    },
  };
}
