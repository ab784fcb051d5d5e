import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createApp } from '../../src/service/create-app';
import { createDecisionArchive } from '../../src/archive/create-decision-archive';
import { replayCommand } from '../../src/cli/commands/replay-command';
import { createLogger } from '../../src/common/logger';
import { createMetrics } from '../../src/observability/metrics';
import { loadPolicyDir } from '../../src/policy/loading/load-policy-dir';
import { PolicyStore } from '../../src/policy/runtime/policy-store';
import type { ReplayReport } from '../../src/replay/replay-report';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { serviceCapabilities } from '../../src/service/service-capabilities';
import { preflightWith } from '../helpers/fixtures';

const EXAMPLES = join(__dirname, '..', '..', 'examples', 'signals');
const json = (res: ServerResponse, body: unknown) => {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
};

/**
 * A decision made by the service from live signals is archived with what the sources answered,
 * and `preflight-gate replay` decides it again from those answers alone (the sources are gone by
 * then): the same policies give the same answers; a changed threshold shows the run it would let
 * through; a query the archive never asked makes the run not replayable.
 */
describe('replaying decisions that read live signals', () => {
  let root: string;
  let policies: string;
  let archive: string;
  const statuses: number[] = [];

  beforeAll(async () => {
    root = mkdtempSync(join(tmpdir(), 'replay-signals-'));
    policies = join(root, 'policies');
    archive = join(root, 'archive');
    mkdirSync(policies);
    mkdirSync(archive);
    for (const f of ['no-attacks-during-critical-alerts.yaml', 'error-budget-burn.yaml'])
      cpSync(join(EXAMPLES, f), join(policies, f));

    // Alertmanager and Prometheus as the service sees them, changing between the three runs.
    let alerts: unknown[] = [];
    let burn = '1.1';
    const sources: Server = createServer((req, res) => {
      if (req.url?.startsWith('/api/v2/alerts')) return json(res, alerts);
      json(res, {
        status: 'success',
        data: { resultType: 'vector', result: [{ metric: { environment: 'production' }, value: [1767607198, burn] }] },
      });
    });
    await new Promise<void>((resolve) => sources.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(sources.address() as AddressInfo).port}`;

    const loaded = loadPolicyDir(policies);
    if (!loaded.ok) throw new Error(JSON.stringify(loaded.problems));
    const logger = createLogger('error', { silent: true });
    const metrics = createMetrics({ defaultMetrics: false });
    const decisions = createDecisionArchive(
      {
        path: join(archive, 'decisions-test.jsonl'),
        maxBytes: 1024 ** 2,
        maxAgeMs: 3_600_000,
        maxFiles: 0,
        queueBytes: 1024 ** 2,
        maskAttributes: [],
      },
      { logger, metrics },
    );
    const gather = createSignalGatherer({
      config: {
        sources: [
          { kind: 'alertmanager', name: 'default', url },
          { kind: 'prometheus', name: 'default', url },
        ],
        cacheTtlMs: 0,
        timeoutMs: 2000,
      },
    });
    const app = createApp({
      store: new PolicyStore(loaded.bundle),
      secrets: [],
      logger,
      metrics,
      capabilities: serviceCapabilities({ archive: decisions, sources: [signalFactSource(gather)] }, logger),
    });
    const server: Server = await new Promise((resolve) => {
      const s = createServer(app).listen(0, '127.0.0.1', () => resolve(s));
    });
    const run = JSON.stringify(
      preflightWith((p) => {
        p.execution.environment = 'production';
      }),
    );
    const preflight = async () =>
      (
        await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/preflight`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: run,
        })
      ).status;
    try {
      statuses.push(await preflight()); // quiet: allowed
      burn = '16.2';
      statuses.push(await preflight()); // the budget burns: denied by error-budget-burn
      alerts = [
        {
          labels: { alertname: 'HighErrorRate', severity: 'critical', namespace: 'production' },
          startsAt: '2026-01-05T09:41:00Z',
          status: { state: 'active', silencedBy: [], inhibitedBy: [] },
        },
      ];
      statuses.push(await preflight()); // and an alert fires: denied by both
    } finally {
      await new Promise((resolve) => server.close(resolve));
      await new Promise((resolve) => sources.close(resolve));
      await decisions.close();
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  async function replay(dir: string): Promise<ReplayReport> {
    let out = '';
    await replayCommand(
      { archive, dir, format: 'json', maxListed: '20' },
      {},
      (s) => {
        out += s;
      },
      () => undefined,
    );
    return JSON.parse(out) as ReplayReport;
  }

  it('archives what the sources answered, and the same policies reproduce every answer', async () => {
    expect(statuses).toEqual([200, 403, 403]);
    const records = readFileSync(join(archive, 'decisions-test.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { facts: { signals?: unknown } });
    expect(records.map((r) => JSON.stringify(r.facts.signals))).toEqual([
      expect.stringContaining('"1.1"'),
      expect.stringContaining('"16.2"'),
      expect.stringContaining('HighErrorRate'),
    ]);
    const report = await replay(policies);
    expect(report.counts).toMatchObject({ records: 3, replayed: 3, unchanged: 3, notReplayable: 0, problems: 0 });
  });

  it('a higher burn threshold lets the run through that only the burn rate denied', async () => {
    const proposed = join(root, 'proposed');
    cpSync(policies, proposed, { recursive: true });
    const file = join(proposed, 'error-budget-burn.yaml');
    writeFileSync(file, readFileSync(file, 'utf8').replace('denyWhen: "> 14.4"', 'denyWhen: "> 20"'));
    const report = await replay(proposed);
    expect(report.counts).toMatchObject({ replayed: 3, unchanged: 1, notReplayable: 0 });
    expect(report.counts.changed['newly-allowed']).toBe(1);
    expect(report.byPolicy).toEqual([expect.objectContaining({ policy: 'error-budget-burn', newlyAllowed: 1 })]);
  });

  it('a query the archive never asked makes the runs not replayable, never a guess', async () => {
    const proposed = join(root, 'other-query');
    cpSync(policies, proposed, { recursive: true });
    const file = join(proposed, 'error-budget-burn.yaml');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace('slo:error_budget_burn_rate:1h', 'slo:error_budget_burn_rate:6h'),
    );
    const report = await replay(proposed);
    expect(report.counts).toMatchObject({ records: 3, replayed: 0, notReplayable: 3 });
  });
});
