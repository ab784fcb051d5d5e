import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServerProcess } from '../helpers/server-process';

/** A policy directory large enough that the file watcher is still scanning it when /readyz answers. */
function largePolicyDir(files: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'pg-many-'));
  for (let i = 0; i < files; i++) {
    writeFileSync(
      join(dir, `p${i}.yaml`),
      `kind: Policy\nname: p${i}\nmatch: {teams: [T${i}]}\nrules:\n  - environments: {blocked: [payments-prod]}\n`,
    );
  }
  return dir;
}

describe('SIGTERM as soon as the service is ready', () => {
  const dir = largePolicyDir(3000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('shuts down gracefully and exits 0, even while the policy watcher is still starting', async () => {
    const server = await startServerProcess({ POLICY_DIR: dir, POLICY_WATCH: 'true' });
    const code = await server.stop('SIGTERM');
    expect(server.output()).toContain('SIGTERM: finishing requests in flight');
    expect(code).toBe(0);
  });
});
