import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startChildService } from '../helpers/child-service';
import { freePort } from '../helpers/server-process';

/** A real OCI registry (Debian's docker-registry, the CNCF distribution) on 127.0.0.1, plain HTTP. */
export interface OciRegistry {
  host: string;
  url: string;
  log(): string;
  stop(): Promise<void>;
}

/**
 * Starts docker-registry (scripts/ensure-test-deps.sh installs it) on a free port with its storage
 * in a temp dir, and waits until its API answers (`GET /v2/` 200). stop() ends it and removes the
 * storage.
 */
export async function startOciRegistry(): Promise<OciRegistry> {
  const dir = mkdtempSync(join(tmpdir(), 'pg-oci-registry-'));
  const port = await freePort();
  const host = `127.0.0.1:${port}`;
  writeFileSync(
    join(dir, 'config.yml'),
    [
      'version: 0.1',
      'log: { level: warn }',
      `storage: { filesystem: { rootdirectory: ${join(dir, 'data')} }, delete: { enabled: true } }`,
      `http: { addr: "${host}" }`,
      '',
    ].join('\n'),
  );
  const service = await startChildService({
    command: 'docker-registry',
    args: ['serve', join(dir, 'config.yml')],
    dir,
    what: `docker-registry on ${host}`,
    ready: async () => (await fetch(`http://${host}/v2/`)).status === 200,
  });
  return { host, url: `http://${host}`, ...service };
}
