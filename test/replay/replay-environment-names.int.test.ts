import type { ArchiveRecord } from '../../src/archive/archive-record';
import type { ReplayCommandOptions } from '../../src/cli/commands/replay-command';
import type { FactSource } from '../../src/policy/core/fact-source';
import type { EnvironmentFacts } from '../../src/policy/facts/environment-facts';
import { archivedRecords, recordArchive, replayJson, type RecordedArchive } from '../helpers/record-archive';
import { tempDir } from '../cli/run-cli';

/**
 * Steadybit environment names as facts (docs/platform-api.md) in the decision archive: the payload
 * sends an environment id, the policies name environments; the archive records the names the
 * decision read, and replay decides from them (the Platform API is not asked again).
 */
const ID = '32009f6e-ff90-47a5-8daa-80f4bb7ae591';
const BLOCKED = 'kind: Policy\nname: blocked-environments\nrules:\n  - environments: { blocked: [payments-prod] }\n';
let lookups = 0;
/** The names the Platform API would give: the id is payments-prod; other values are names already. */
const names: FactSource = {
  name: 'Steadybit Platform API (test)',
  kinds: ['environment-names'],
  async gather(_needs, payload) {
    lookups++;
    const environments: EnvironmentFacts = {};
    for (const v of [payload.execution.environment, payload.execution.overrides?.environment])
      if (typeof v === 'string') environments[v] = { name: v === ID ? 'payments-prod' : v };
    return { ok: true, facts: { environments } };
  },
};

let recorded: RecordedArchive;
const records: ArchiveRecord[] = [];
beforeAll(async () => {
  recorded = await recordArchive({
    policies: { 'blocked-environments.yaml': BLOCKED },
    runs: 200,
    seed: 41,
    factSources: () => [names],
  });
  records.push(...(await archivedRecords(recorded)));
}, 300_000);

const replay = (opts: Partial<ReplayCommandOptions>) => replayJson(recorded, opts);
const byId = (r: ArchiveRecord) => (r.payload as { execution: { environment: string } }).execution.environment === ID;

test('runs sent with an environment id are archived with the name the decision read, and denied by it', () => {
  expect(records).toHaveLength(200);
  const denied = records.filter(byId);
  expect(denied.length).toBeGreaterThan(10);
  for (const r of denied) {
    expect(r.facts.environments).toEqual({ [ID]: { name: 'payments-prod' } });
    expect(r.facts.needs).toContainEqual({ kind: 'environment-names' });
    expect(r.answer.status).toBe(403);
  }
});

test('replay decides from the archived names alone and reproduces every answer', async () => {
  const before = lookups;
  const { code, warnings, report } = await replay({ failOn: 'any-change' });
  expect(warnings).toEqual([]);
  expect(report.counts).toMatchObject({ replayed: 200, unchanged: 200, notReplayable: 0, irreproducible: 0 });
  expect(code).toBe(0);
  expect(lookups).toBe(before);
});

test('unblocking payments-prod: exactly the runs sent by its id are newly allowed', async () => {
  const dir = tempDir({ 'blocked-environments.yaml': BLOCKED.replace('payments-prod', 'nowhere') }).dir;
  const { report } = await replay({ dir });
  expect(report.changes['newly-allowed'].map((c) => c.decisionId).sort()).toEqual(
    records
      .filter(byId)
      .map((r) => r.id)
      .sort(),
  );
});
