import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../helpers/child-service';
import { freePort, ROOT } from '../helpers/server-process';

/** A real npm registry (verdaccio) on 127.0.0.1, and a token allowed to publish to it. */
export interface NpmRegistry {
  url: string;
  token: string;
  log(): string;
  stop(): Promise<void>;
}

/** What this machine's npm is configured with (`npm config get`), or '' when unset. */
function npmConfig(key: string): string {
  const value = spawnSync('npm', ['config', 'get', key], { encoding: 'utf8' }).stdout.trim();
  return value === 'null' || value === 'undefined' ? '' : value;
}

/**
 * Starts verdaccio (a devDependency) on a free port with its storage in a temp dir. `name` is
 * served only from what is published to it; every other package is proxied from the registry this
 * machine's npm uses, trusting the CA its npm trusts (a mirror, a TLS-intercepting proxy). A user is
 * registered through the registry API, and its token returned for `npm publish`.
 */
export async function startNpmRegistry(name: string): Promise<NpmRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-npm-registry-'));
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  writeFileSync(
    join(dir, 'config.yaml'),
    [
      `storage: ${join(dir, 'storage')}`,
      `auth: { htpasswd: { file: ${join(dir, 'htpasswd')}, max_users: 1 } }`,
      `uplinks: { upstream: { url: "${npmConfig('registry') || 'https://registry.npmjs.org/'}", timeout: 60s } }`,
      'packages:',
      `  '${name}': { access: $all, publish: $authenticated }`,
      `  '**': { access: $all, publish: $authenticated, proxy: upstream }`,
      'log: { type: stdout, format: json, level: warn }',
      '',
    ].join('\n'),
  );
  const cafile = npmConfig('cafile');
  const env = { ...process.env, ...(cafile ? { NODE_EXTRA_CA_CERTS: cafile } : {}) };
  const service = await startChildService({
    command: process.execPath,
    args: [
      join(ROOT, 'node_modules', 'verdaccio', 'bin', 'verdaccio'),
      '--config',
      join(dir, 'config.yaml'),
      '--listen',
      `127.0.0.1:${port}`,
    ],
    dir,
    spawn: { cwd: dir, env },
    what: `verdaccio on ${url}`,
    ready: async () => (await fetch(`${url}/-/ping`)).status === 200,
    timeoutMs: 30_000,
  });
  try {
    const res = await fetch(`${url}/-/user/org.couchdb.user:release`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'release', password: `rehearsal-${process.pid}` }),
    });
    const { token } = (await res.json()) as { token?: string };
    if (!token) throw new Error(`verdaccio registered no user (${res.status})`);
    return { url, token, ...service };
  } catch (err) {
    await service.stop();
    throw err;
  }
}
