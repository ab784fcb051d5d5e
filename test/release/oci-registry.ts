import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, waitFor } from '../helpers/server-process';

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
  const child: ChildProcess = spawn('docker-registry', ['serve', join(dir, 'config.yml')], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  child.stderr?.on('data', (d: Buffer) => {
    out += d.toString();
  });
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await waitFor(async () => {
      if (child.exitCode !== null) throw new Error(`docker-registry exited (${child.exitCode}):\n${out}`);
      return (await fetch(`http://${host}/v2/`)).status === 200;
    }, `docker-registry on ${host}:\n${out}`);
  } catch (err) {
    await stop();
    throw err;
  }
  return { host, url: `http://${host}`, log: () => out, stop };
}
