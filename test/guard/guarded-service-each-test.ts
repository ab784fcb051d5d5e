import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreflightPayload } from '../../src/policy/core/decision';
import { environment, type FakeSteadybit } from '../helpers/fake-steadybit';
import { fakeSteadybitEachTest } from '../helpers/fake-steadybit-each-test';
import { ROOT, startServerProcess, type ServerProcess } from '../helpers/server-process';
import { startAlertmanager, type AlertmanagerServer } from '../signals/alertmanager-server';

const EXAMPLES = join(ROOT, 'examples', 'guard');
/** examples/guard/run.json's environment: Steadybit (the fake) calls it `production`. */
const ENV_ID = '8d0c1f7e-3b2a-4c5d-9e6f-7a8b9c0d1e2f';

/** The built service guarding runs against a real Alertmanager and the Platform API fake. */
export interface GuardedService {
  /** The real Alertmanager, started once for the file. */
  readonly am: AlertmanagerServer;
  /** This test's Platform API fake, with the run's environment named `production`. */
  readonly fake: FakeSteadybit;
  /** Starts the built service on examples/guard/critical-alerts.yaml with `env` besides; stopped after the test. */
  start(env: Record<string, string>): Promise<ServerProcess>;
}

/** examples/guard/run.json with execution id `id`. */
export function guardedRun(id: number): PreflightPayload {
  const payload = JSON.parse(readFileSync(join(EXAMPLES, 'run.json'), 'utf8')) as PreflightPayload;
  payload.execution.id = id;
  return payload;
}

/** What the service's /readyz says of its guard. */
export async function guardHealth(p: ServerProcess): Promise<{ lastTick?: { runs: number }; stops: number }> {
  return ((await (await fetch(`${p.url}/readyz`)).json()) as { guard: { lastTick?: { runs: number }; stops: number } })
    .guard;
}

/**
 * For each test of the file: the built service (webhook secret `secret`, no audit log, the policies
 * not watched) reading Alertmanager and the fake. After each test the service stops, then `afterStop`
 * runs, then the fake is checked and stopped (afterEach hooks run in the order they are declared).
 */
export function guardedServiceEachTest(secret: string, afterStop?: (am: AlertmanagerServer) => Promise<void>) {
  let am: AlertmanagerServer | undefined;
  let fake: FakeSteadybit | undefined;
  let dir = '';
  let proc: ServerProcess | undefined;
  beforeAll(async () => {
    am = await startAlertmanager();
    dir = mkdtempSync(join(tmpdir(), 'guarded-service-'));
    copyFileSync(join(EXAMPLES, 'critical-alerts.yaml'), join(dir, 'critical-alerts.yaml'));
  });
  afterAll(async () => {
    await am?.stop();
    rmSync(dir, { recursive: true, force: true });
  });
  afterEach(async () => {
    await proc?.stop();
    proc = undefined;
    if (am !== undefined) await afterStop?.(am);
  });
  fakeSteadybitEachTest((started) => {
    fake = started;
    fake.environments = [environment(ENV_ID, 'production')];
  });
  const started = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`${what} is started before each test`);
    return value;
  };
  const service: GuardedService = {
    get am() {
      return started(am, 'Alertmanager');
    },
    get fake() {
      return started(fake, 'the Platform API fake');
    },
    async start(env) {
      proc = await startServerProcess({
        POLICY_DIR: dir,
        POLICY_WATCH: 'false',
        WEBHOOK_SECRET: secret,
        AUDIT_LOG: 'off',
        ALERTMANAGER_URL: service.am.url,
        STEADYBIT_URL: service.fake.url,
        STEADYBIT_TOKEN: 'test-token',
        ...env,
      });
      return proc;
    },
  };
  return service;
}
