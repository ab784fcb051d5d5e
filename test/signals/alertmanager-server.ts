import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../helpers/child-service';
import { freePort } from '../helpers/server-process';

export interface PostedAlert {
  labels: Record<string, string>;
  annotations?: Record<string, string>;
  startsAt?: string;
  endsAt?: string;
}

export interface AlertmanagerServer {
  url: string;
  /** POST /api/v2/alerts, as Prometheus sends them. */
  post(alerts: PostedAlert[]): Promise<void>;
  /** Resolves the alerts: posts them again with endsAt in the past. */
  resolve(alerts: PostedAlert[]): Promise<void>;
  /** POST /api/v2/silences: silences alerts matching `name=value` for an hour; returns the silence id. */
  silence(name: string, value: string): Promise<string>;
  /** DELETE /api/v2/silence/{id}: the silence expires. */
  expire(id: string): Promise<void>;
  output(): string;
  stop(): Promise<void>;
}

/**
 * A real Alertmanager (the Debian package's binary) on a free 127.0.0.1 port, clustering off,
 * its data in a temp dir that stop() removes.
 */
export async function startAlertmanager(): Promise<AlertmanagerServer> {
  const dir = mkdtempSync(join(tmpdir(), 'alertmanager-'));
  const config = join(dir, 'alertmanager.yml');
  writeFileSync(config, ['route:', '  receiver: none', 'receivers:', '  - name: none', ''].join('\n'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const service = await startChildService({
    command: 'prometheus-alertmanager',
    args: [
      `--config.file=${config}`,
      `--storage.path=${join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--cluster.listen-address=',
      '--log.level=warn',
    ],
    dir,
    what: `alertmanager on ${url} to be ready`,
    ready: async () => (await fetch(`${url}/-/ready`)).status === 200,
    timeoutMs: 20000,
  });
  const send = async (path: string, body: unknown) => {
    const res = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST ${path}: HTTP ${res.status} ${await res.text()}`);
    const text = await res.text();
    return text === '' ? undefined : (JSON.parse(text) as unknown);
  };
  return {
    url,
    output: service.log,
    stop: service.stop,
    post: async (alerts) => {
      await send('/api/v2/alerts', alerts);
    },
    resolve: async (alerts) => {
      await send(
        '/api/v2/alerts',
        alerts.map((a) => ({ ...a, endsAt: new Date(Date.now() - 1000).toISOString() })),
      );
    },
    async silence(name, value) {
      const now = Date.now();
      const body = await send('/api/v2/silences', {
        matchers: [{ name, value, isRegex: false, isEqual: true }],
        startsAt: new Date(now - 1000).toISOString(),
        endsAt: new Date(now + 3600_000).toISOString(),
        createdBy: 'test',
        comment: 'test',
      });
      return (body as { silenceID: string }).silenceID;
    },
    async expire(id) {
      const res = await fetch(`${url}/api/v2/silence/${encodeURIComponent(id)}`, { method: 'DELETE' });
      if (res.status !== 200) throw new Error(`DELETE silence ${id}: HTTP ${res.status} ${await res.text()}`);
    },
  };
}
