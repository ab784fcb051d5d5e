import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import request from 'supertest';
import { loadConfig } from '../../src/service/config';
import { startServer, type RunningServer } from '../../src/service/start-server';
import { NO_PLATFORM } from '../../src/guard/run-guard';
import { capturingLogger, type LogLine } from '../helpers/capturing-logger';

const GUARDED =
  'kind: Policy\nname: business-hours\nwhileRunning: true\nrules:\n  - timeWindow: { timeZone: UTC, allowed: [{ from: "00:00", to: "24:00" }] }\n';
const UNGUARDED = GUARDED.replace('whileRunning: true\n', '');

let dir: string;
let running: RunningServer | undefined;
afterEach(async () => {
  await running?.shutdown();
  running = undefined;
  rmSync(dir, { recursive: true, force: true });
});

async function start(policy: string): Promise<{ lines: LogLine[]; server: RunningServer['server'] }> {
  dir = mkdtempSync(join(tmpdir(), 'guard-startup-'));
  writeFileSync(join(dir, 'p.yaml'), policy);
  const { logger, lines } = capturingLogger();
  running = await startServer(
    loadConfig({ POLICY_DIR: dir, PORT: '0', HOST: '127.0.0.1', POLICY_WATCH: 'false', AUDIT_LOG: 'off' }),
    logger,
  );
  return { lines, server: running.server };
}

describe('without STEADYBIT_URL the guard cannot stop anything', () => {
  test('start-up says so when a policy asks for whileRunning, and /readyz shows it', async () => {
    const { lines, server } = await start(GUARDED);
    expect(lines.map((l) => l.message)).toContain(`guard: policies ask to guard runs in progress, but ${NO_PLATFORM}`);
    const res = await request(server).get('/readyz');
    expect(res.status).toBe(200);
    expect(res.body.guard).toMatchObject({
      guardedPolicies: 1,
      canStop: false,
      message: NO_PLATFORM,
      intervalSeconds: 15,
    });
  });

  test('nothing is said at start-up when no policy asks for it; /readyz still shows the guard', async () => {
    const { lines, server } = await start(UNGUARDED);
    expect(lines.filter((l) => l.message.startsWith('guard:'))).toEqual([]);
    expect((await request(server).get('/readyz')).body.guard).toMatchObject({ guardedPolicies: 0, canStop: false });
  });
});
