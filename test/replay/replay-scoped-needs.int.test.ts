import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ArchiveRecord } from '../../src/archive/archive-record';
import { TEAMS } from '../helpers/generated-runs';
import type { ReplayReport } from '../../src/replay/replay-report';
import { archivedRecords, recordArchive, replayJson, type RecordedArchive } from '../helpers/record-archive';

/**
 * A proposed memory rule scoped to one team needs the archive's state facts only for that team's
 * runs: the runs of the other teams are replayed from what the archive holds (issue 49 item 6).
 * The recording set has no memory rule, so the archive holds no history of ended runs at all.
 */
const RECORDING = {
  'no-prod.yaml': 'kind: Policy\nname: no-prod\nrules:\n  - environments: { blocked: [prod] }\n',
  'staging-watch.yaml':
    'kind: Policy\nname: staging-watch\nmode: warn\nmatch: { environments: [staging] }\nrules:\n  - condition: {deny: {in: [ATTACK, {var: steps.actionKinds}]}, reason: "attacks in staging are watched"}\n',
};
const PAUSE = 'rules:\n  - cooldown: { after: [FAILED], duration: 2d, per: team }\n';
const MISSING =
  'the proposed policies need state facts the archive did not record for this run (its policy set did not need them): runs ended in the last 2 days per team';

let recorded: RecordedArchive;
let records: ArchiveRecord[];
const scratch: string[] = [];

beforeAll(async () => {
  recorded = await recordArchive({ policies: RECORDING, runs: 240, seed: 49 });
  records = await archivedRecords(recorded);
}, 300_000);
afterAll(() => scratch.forEach((d) => rmSync(d, { recursive: true, force: true })));

/**
 * The replayed runs are decided as before: the only change a policy that does not apply makes is
 * the count in an allowed run's message ("2 of 4 policies applied", one policy more in the set);
 * a run recorded with ?explain lists it as skipped (a results change).
 */
function expectDecidedAsBefore(report: ReplayReport): void {
  expect(report.counts.changed).toMatchObject({ 'newly-allowed': 0, 'newly-denied': 0, modifications: 0 });
  for (const run of report.changes.message)
    expect(run.after.message).toBe(
      run.before.message.replace(/ of (\d+) policies applied/, (_m, n) => ` of ${Number(n) + 1} policies applied`),
    );
}

/** The recording set and one more policy file. */
function proposedWith(file: string, text: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'proposed-'));
  scratch.push(dir);
  for (const [name, body] of Object.entries({ ...RECORDING, [file]: text })) writeFileSync(join(dir, name), body);
  return dir;
}

const teamOf = (r: ArchiveRecord) => (r.payload as { execution: { teamKey: string } }).execution.teamKey;

test('the recording holds runs of every team and no history of ended runs', () => {
  expect(new Set(records.map(teamOf))).toEqual(new Set(TEAMS));
  expect(records.every((r) => r.facts.needs.every((n) => n.kind !== 'ended'))).toBe(true);
  expect(readdirSync(recorded.archive).length).toBeGreaterThan(0);
});

test("a cool-down scoped to one team (match: teams): only that team's runs are not replayable, the others are decided as before", async () => {
  const pay = records.filter((r) => teamOf(r) === 'PAY');
  expect(pay.length).toBeGreaterThan(20);
  expect(pay.length).toBeLessThan(records.length - 20);
  const dir = proposedWith('pay-pause.yaml', `kind: Policy\nname: pay-pause\nmatch: { teams: [PAY] }\n${PAUSE}`);
  const { report } = await replayJson(recorded, { dir, tolerateNotReplayable: true });
  expect(report.counts).toMatchObject({
    records: records.length,
    replayed: records.length - pay.length,
    notReplayable: pay.length,
  });
  expectDecidedAsBefore(report);
  expect(report.notReplayable.map((n) => [n.message, n.count])).toEqual([[MISSING, pay.length]]);
  expect(report.notReplayable[0].examples.every((run) => run.teamKey === 'PAY')).toBe(true);
});

test("excluding teams works the same way: the excluded teams' runs replay, the rest cannot", async () => {
  const others = records.filter((r) => teamOf(r) !== 'ADM');
  const dir = proposedWith('pause.yaml', `kind: Policy\nname: pause\nexclude: { teams: [ADM] }\n${PAUSE}`);
  const { report } = await replayJson(recorded, { dir, tolerateNotReplayable: true });
  expect(report.counts).toMatchObject({ replayed: records.length - others.length, notReplayable: others.length });
  expect(report.notReplayable[0].examples.every((run) => run.teamKey !== 'ADM')).toBe(true);
  expectDecidedAsBefore(report);
});

test('a scope the archive cannot place runs in (createdByTeams without recorded members): every run is not replayable', async () => {
  const dir = proposedWith(
    'sre-pause.yaml',
    `kind: Policy\nname: sre-pause\nmatch: { createdByTeams: [SRE] }\n${PAUSE}`,
  );
  const { report } = await replayJson(recorded, { dir, tolerateNotReplayable: true });
  expect(report.counts.notReplayable).toBe(records.length);
  expect(report.notReplayable[0].message).toContain('the members of Steadybit team SRE');
});
