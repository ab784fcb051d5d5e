import { renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fingerprint } from '../../src/signature/secret-fingerprint';
import { signedPost } from '../helpers/signed-post';
import { parseSecretFile, readSecretFile, secretFile } from '../../src/signature/webhook-secrets';
import { loadConfig } from '../../src/service/config';
import { capturingLogger } from '../helpers/capturing-logger';
import { runIn, tempDirs, BLOCK_PROD } from '../cli/run-cli';
import { startServerProcess, waitFor, type ServerProcess } from '../helpers/server-process';

const OLD = 'old-secret-0123456789abcdef';
const NEW = 'new-secret-fedcba9876543210';
const dirs = tempDirs();

/** Replaces the file as Kubernetes updates a mounted Secret: the new content appears at once (a rename). */
function swap(path: string, text: string): void {
  writeFileSync(`${path}.next`, text);
  renameSync(`${path}.next`, path);
}

describe('WEBHOOK_SECRET_FILE', () => {
  test('one secret per line (or comma-separated, as WEBHOOK_SECRET); blank lines, spaces around and # comment lines are ignored', () => {
    expect(parseSecretFile(`# rotation 2026-11\n  ${NEW}  \n\n${OLD}\r\n`)).toEqual([NEW, OLD]);
    expect(parseSecretFile(`${NEW}, ${OLD}`)).toEqual([NEW, OLD]);
  });

  test('start-up refuses a file that cannot be read, holds no secret, or comes with WEBHOOK_SECRET', () => {
    const dir = dirs({ empty: '\n# nothing\n', one: `${OLD}\n` });
    expect(() => readSecretFile(join(dir, 'missing'))).toThrow(
      /WEBHOOK_SECRET_FILE .*missing cannot be read \(ENOENT\)/,
    );
    expect(() => readSecretFile(join(dir, 'empty'))).toThrow(/holds no secret/);
    expect(() => loadConfig({ WEBHOOK_SECRET: 'x', WEBHOOK_SECRET_FILE: join(dir, 'one') })).toThrow(
      'set only one of WEBHOOK_SECRET and WEBHOOK_SECRET_FILE',
    );
    expect(loadConfig({ WEBHOOK_SECRET_FILE: join(dir, 'one') })).toMatchObject({
      secrets: [OLD],
      secretFile: join(dir, 'one'),
    });
  });

  test('re-read at most once a second; while the file is gone or empty the last secrets stay, with one warning', () => {
    const dir = dirs({ secrets: `${OLD}\n` });
    const path = join(dir, 'secrets');
    const { logger, lines } = capturingLogger();
    let now = 0;
    const source = secretFile(path, [OLD], { logger, now: () => now });
    swap(path, `${NEW}\n${OLD}\n`);
    expect(source.current().secrets).toEqual([OLD]); // read less than a second ago
    now = 1000;
    expect(source.current()).toEqual({ secrets: [NEW, OLD], fingerprints: [fingerprint(NEW), fingerprint(OLD)] });
    rmSync(path);
    now = 2000;
    expect(source.current().secrets).toEqual([NEW, OLD]);
    now = 3000;
    swap(path, '\n');
    expect(source.current().secrets).toEqual([NEW, OLD]);
    now = 4000;
    swap(path, `${NEW}\n`);
    expect(source.current().secrets).toEqual([NEW]);
    expect(lines.map((l) => l.message)).toEqual([
      'webhook secrets changed (WEBHOOK_SECRET_FILE)',
      'WEBHOOK_SECRET_FILE cannot be read; the secrets read before stay in use',
      'webhook secrets changed (WEBHOOK_SECRET_FILE)',
    ]);
  });

  describe('a rotation on a running service, without a restart', () => {
    let gate: ServerProcess | undefined;
    afterEach(async () => {
      await gate?.stop();
      gate = undefined;
    });

    test('add the new secret, Steadybit switches, remove the old: each step takes effect, and the metric says which secret verified', async () => {
      const dir = dirs({ secrets: `${OLD}\n` });
      const path = join(dir, 'secrets');
      gate = await startServerProcess({
        WEBHOOK_SECRET_FILE: path,
        POLICY_DIR: dirs({ 'block.yaml': BLOCK_PROD }),
        AUDIT_LOG: 'off',
      });
      const url = gate.url;
      const post = async (secret: string) => (await signedPost(`${url}/preflight`, runIn('staging'), secret)).status;
      expect([await post(OLD), await post(NEW)]).toEqual([200, 401]);
      swap(path, `${NEW}\n${OLD}\n`); // 1. the gate accepts both
      await waitFor(async () => (await post(NEW)) === 200, 'the new secret to be accepted');
      expect(await post(OLD)).toBe(200); // 2. Steadybit still signs with the old one until it is switched
      swap(path, `${NEW}\n`); // 3. the old one removed
      await waitFor(async () => (await post(OLD)) === 401, 'the old secret to be refused');
      expect(await post(NEW)).toBe(200);
      const metrics = await (await fetch(`${url}/metrics`)).text();
      const count = (secret: string) =>
        Number(
          new RegExp(`^preflight_signature_verified_total\\{secret="${fingerprint(secret)}"\\} (\\d+)$`, 'm').exec(
            metrics,
          )?.[1],
        );
      expect(count(OLD)).toBeGreaterThanOrEqual(2);
      expect(count(NEW)).toBeGreaterThanOrEqual(2);
      expect(gate.output()).toContain('webhook secrets changed (WEBHOOK_SECRET_FILE)');
      expect(gate.output()).not.toContain(NEW);
    });
  });
});
