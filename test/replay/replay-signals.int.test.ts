import { createServer, type Server } from 'node:http';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import type { ReplayCommandOptions } from '../../src/cli/commands/replay-command';
import { createSignalGatherer } from '../../src/signals/signal-gatherer';
import { signalFactSource } from '../../src/signals/signal-fact-source';
import { archivedRecords, recordArchive, replayJson, type RecordedArchive } from '../helpers/record-archive';
import { tempDir } from '../cli/run-cli';

/**
 * Signal facts (docs/signals.md) in the decision archive: the service records what Alertmanager and
 * Prometheus answered for each decision, and replay decides the runs again from those answers alone
 * (the sources are gone by then: nothing is asked again).
 */
const INCIDENTS =
  'kind: Policy\nname: no-chaos-during-incidents\nrules:\n  - alerts:\n      matchers: [\'severity="critical"\', \'namespace="{{environment}}"\']\n';
const BUDGET = (query: string) =>
  `kind: Policy\nname: error-budget\nrules:\n  - prometheus:\n      query: '${query}'\n      denyWhen: "> 14.4"\n`;
const QUERY = 'slo:burn_rate:1h{environment="{{environment}}"}';
const POLICIES = { 'incidents.yaml': INCIDENTS, 'budget.yaml': BUDGET(QUERY) };

/** Alertmanager API v2 and Prometheus' instant query on 127.0.0.1, answering what the test sets. */
let incident = false;
let burnRate = '1';
let asked = 0;
function signalServer(): Server {
  return createServer((req, res) => {
    asked++;
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    res.writeHead(200, { 'content-type': 'application/json' });
    if (url.pathname === '/api/v2/alerts') {
      const alert = {
        labels: { alertname: 'HighErrorRate', severity: 'critical', namespace: 'prod' },
        annotations: {},
        startsAt: '2026-01-05T00:00:00.000Z',
        endsAt: '2099-01-01T00:00:00.000Z',
        updatedAt: '2026-01-05T00:00:00.000Z',
        fingerprint: 'f1',
        receivers: [{ name: 'none' }],
        status: { state: 'active', silencedBy: [], inhibitedBy: [] },
      };
      res.end(JSON.stringify(incident ? [alert] : []));
    } else {
      const environment = /environment="([^"]*)"/.exec(url.searchParams.get('query') ?? '')?.[1] ?? '';
      res.end(
        JSON.stringify({
          status: 'success',
          data: { resultType: 'vector', result: [{ metric: { environment }, value: [1767600000, burnRate] }] },
        }),
      );
    }
  });
}

let recorded: RecordedArchive;
const records: ArchiveRecord[] = [];
beforeAll(async () => {
  const server = signalServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
  const config = {
    sources: [
      { kind: 'alertmanager' as const, name: 'default', url },
      { kind: 'prometheus' as const, name: 'default', url },
    ],
    cacheTtlMs: 0,
    timeoutMs: 5000,
  };
  try {
    recorded = await recordArchive({
      policies: POLICIES,
      runs: 300,
      seed: 31,
      factSources: (clock) => [signalFactSource(createSignalGatherer({ config, clock }))],
      beforeRun: (i) => {
        incident = i % 5 === 0;
        burnRate = i % 7 === 0 ? '20' : '1';
      },
    });
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
  records.push(...(await archivedRecords(recorded)));
}, 300_000);

const replay = (opts: Partial<ReplayCommandOptions>) => replayJson(recorded, opts);
const deniedBy = (r: ArchiveRecord) =>
  r.results
    .filter((x) => x.result === 'deny')
    .map((x) => x.policy)
    .sort()
    .join();

test('every decision is archived with the alerts and query answers it read', () => {
  expect(asked).toBeGreaterThan(300);
  expect(records).toHaveLength(300);
  for (const r of records) {
    expect(r.facts.needs).toEqual(
      expect.arrayContaining([
        { kind: 'alerts', source: 'default' },
        expect.objectContaining({ kind: 'prometheus', source: 'default', query: QUERY }),
      ]),
    );
    expect(r.facts.signals?.alertmanager?.default).toEqual(expect.objectContaining({ alerts: expect.any(Array) }));
  }
  // Both signals denied some runs, and let others through.
  expect(records.filter((r) => deniedBy(r).includes('no-chaos-during-incidents')).length).toBeGreaterThan(5);
  expect(records.filter((r) => deniedBy(r).includes('error-budget')).length).toBeGreaterThan(5);
  expect(records.filter((r) => r.answer.status === 200).length).toBeGreaterThan(50);
});

test('replayed against the revision that made them, from the archived signals alone, every answer is the same', async () => {
  const before = asked;
  const { code, warnings, report } = await replay({ failOn: 'any-change' });
  expect(warnings).toEqual([]);
  expect(report.counts).toMatchObject({ replayed: 300, unchanged: 300, notReplayable: 0, irreproducible: 0 });
  expect(code).toBe(0);
  expect(asked).toBe(before);
});

test('dropping the incident guard: exactly the runs only it denied are newly allowed', async () => {
  const dir = tempDir({ 'budget.yaml': BUDGET(QUERY) }).dir;
  const { report } = await replay({ dir });
  const expected = records
    .filter((r) => deniedBy(r) === 'no-chaos-during-incidents')
    .map((r) => r.id)
    .sort();
  expect(expected.length).toBeGreaterThan(0);
  expect(report.counts.changed['newly-allowed']).toBe(expected.length);
  expect(report.changes['newly-allowed'].map((c) => c.decisionId).sort()).toEqual(expected);
});

test('a query the archive did not record: every run is not replayable, and the warning names the query', async () => {
  const dir = tempDir({
    'incidents.yaml': INCIDENTS,
    'budget.yaml': BUDGET('slo:burn_rate:6h{environment="{{environment}}"}'),
  }).dir;
  const { code, warnings, report } = await replay({ dir, failOn: 'newly-allowed' });
  expect(report.counts.notReplayable).toBe(300);
  expect(warnings[0]).toContain('the query slo:burn_rate:6h{environment="{{environment}}"} on prometheus "default"');
  // No run replayed at all: nothing was checked, exit 2 (fail closed, with or without --fail-on).
  expect(warnings.at(-1)).toContain(
    'no archived decision was replayed, so nothing was checked: 300 runs cannot be replayed',
  );
  expect(code).toBe(2);
});
