import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exceptionsCommand } from '../../src/cli/commands/exceptions-command';
import type { ExceptionUsageReport } from '../../src/approvals/exception-usage';
import { archivedRecords, recordArchive, replayJson, type RecordedArchive } from '../helpers/record-archive';

/**
 * `preflight-gate exceptions`: each exception of a policy set with its uses, last use, expiry and
 * "still needed?", read from a real decision archive: the service (createApp, in-memory state,
 * the DECISION_ARCHIVE writer) decided 150 generated runs under the set, then the report reads
 * what it wrote (several rotated, gzipped files).
 */
const until = (iso: string) => `"${iso}"`;
const exception = (name: string, team: string, expires: string, extra = '') =>
  `kind: Exception\nname: ${name}\npolicy: no-prod\nowner: sre@example.com\nreason: game day\nexpires: ${until(expires)}\n${extra}match: { teams: [${team}], environments: [prod] }\n`;
const POLICIES = {
  'no-prod.yaml': 'kind: Policy\nname: no-prod\nrules:\n  - environments: { blocked: [prod] }\n',
  'shop.yaml': exception('shop-prod', 'SHOP', '2026-03-01T00:00:00Z'),
  'pay.yaml': exception('pay-prod-once', 'PAY', '2026-03-01T00:00:00Z', 'maxUses: 1\n'),
  'nobody.yaml': exception('nobody-prod', 'NOBODY', '2026-03-01T00:00:00Z'),
  'old.yaml': exception('adm-prod-old', 'ADM', '2026-01-06T00:00:00Z'),
};
const NOW = '2026-01-20T00:00:00Z';

let recorded: RecordedArchive;
beforeAll(async () => {
  recorded = await recordArchive({ policies: POLICIES, runs: 150, seed: 31, maxBytes: 40_000 });
}, 60_000);

async function report(args: { unusedDays?: string; format?: string; auditLog?: string; archive?: boolean }) {
  let out = '';
  const warnings: string[] = [];
  const code = await exceptionsCommand(
    {
      archive: args.archive === false ? undefined : recorded.archive,
      auditLog: args.auditLog,
      dir: recorded.policies,
      unusedDays: args.unusedDays ?? '30',
      format: args.format ?? 'json',
      now: NOW,
    },
    {},
    (s) => {
      out += s;
    },
    (s) => warnings.push(s),
  );
  return { code, out, warnings };
}

test('uses and last use per exception, as the archive holds them; maxUses as the service enforced it', async () => {
  const { code, out, warnings } = await report({});
  expect([code, warnings]).toEqual([0, []]);
  const r = JSON.parse(out) as ExceptionUsageReport;
  const records = await archivedRecords(recorded);
  const allowedBy = (name: string) =>
    records.filter((x) => x.answer.status === 200 && x.results.some((p) => p.exception === name));
  const byName = new Map(r.exceptions.map((e) => [e.name, e]));
  expect(r.decisionsRead).toBe(records.length);
  const shop = byName.get('shop-prod');
  expect(shop?.uses).toBeGreaterThan(1);
  expect(shop).toMatchObject({
    uses: allowedBy('shop-prod').length,
    lastUsed: allowedBy('shop-prod').at(-1)?.at,
    expired: false,
    unused: false,
  });
  expect(byName.get('pay-prod-once')).toMatchObject({ uses: 1, maxUses: 1 });
  expect(byName.get('nobody-prod')).toMatchObject({ uses: 0, unused: true, expired: false });
  expect(byName.get('nobody-prod')?.lastUsed).toBeUndefined();
  expect(byName.get('adm-prod-old')).toMatchObject({ expired: true });
});

test('--unused-days: an exception last used before the window is "still needed?"', async () => {
  const r = JSON.parse((await report({ unusedDays: '1' })).out) as ExceptionUsageReport;
  // The recording ends days before NOW: with a one-day window nothing was used recently.
  expect(r.exceptions.filter((e) => !e.unused)).toEqual([]);
});

test('text and Markdown say what to do with each', async () => {
  const text = (await report({ format: 'text' })).out;
  expect(text).toMatch(
    /nobody-prod \(waives no-prod, owner sre@example.com, until 2026-03-01T00:00:00.000Z\): used 0, last never; still needed\? no run used it in 30 days/,
  );
  expect(text).toMatch(/pay-prod-once .*: used 1 of 1, last 2026-.*; used up: remove it/);
  expect(text).toMatch(/adm-prod-old .*expired: remove it/);
  expect(text).toContain('Not used in the last 30 days (still needed?): nobody-prod');
  const md = (await report({ format: 'markdown' })).out;
  expect(md).toContain('| Exception | Waives | Owner | Expires | Uses | Last used | |');
  expect(md).toMatch(/\| `shop-prod` \| `no-prod` \| sre@example.com \| 2026-03-01T00:00:00.000Z \| \d+ \| 2026-/);
});

test('an audit log alone, and with the archive: a decision in both counts once', async () => {
  const records = await archivedRecords(recorded);
  const audit = records.map((x) =>
    JSON.stringify({
      log: 'audit',
      decisionId: x.id,
      time: x.at,
      decision: x.answer.status === 200 ? 'allow' : 'deny',
      policies: x.results.filter((p) => p.exception).map((p) => ({ policy: p.policy, exception: p.exception })),
    }),
  );
  const dir = mkdtempSync(join(tmpdir(), 'exceptions-audit-'));
  const file = join(dir, 'audit.log');
  writeFileSync(file, `{"level":"info","message":"started"}\nnot json\n${audit.join('\n')}\n`);
  const fromArchive = JSON.parse((await report({})).out) as ExceptionUsageReport;
  const fromAudit = JSON.parse((await report({ auditLog: file, archive: false })).out) as ExceptionUsageReport;
  const both = JSON.parse((await report({ auditLog: file })).out) as ExceptionUsageReport;
  expect(fromAudit.exceptions).toEqual(fromArchive.exceptions);
  expect(both.exceptions).toEqual(fromArchive.exceptions);
  expect(both.decisionsRead).toBe(records.length);
});

test('refuses a report without a source or with a bad --unused-days', async () => {
  await expect(
    exceptionsCommand(
      { dir: recorded.policies, unusedDays: '30', format: 'text' },
      {},
      () => undefined,
      () => undefined,
    ),
  ).rejects.toThrow('give --archive');
  await expect(report({ unusedDays: '0' })).rejects.toThrow(
    '--unused-days 0 is not a whole number of days, at least 1',
  );
});

test('replay lists the runs whose answer turned on a use count (issue 31 item 7), and says how it decides', async () => {
  const { report: r } = await replayJson(recorded);
  const records = await archivedRecords(recorded);
  const payProd = records.filter((x) => {
    const e = (x.payload as { execution: { teamKey?: string; environment?: string } }).execution;
    return e.teamKey === 'PAY' && e.environment === 'prod';
  });
  expect(payProd.length).toBeGreaterThan(1);
  expect(r.dependsOnUses?.rule).toMatch(/decided twice more, once with every such exception unused/);
  // Every PAY run in prod turns on pay-prod-once's count: the first allowed at 0 uses, the others denied at 1.
  const listed = new Map((r.dependsOnUses?.runs ?? []).map((run) => [run.decisionId, run]));
  for (const x of payProd) expect(listed.get(x.id)?.exceptions).toEqual(['pay-prod-once']);
  expect([...listed.values()].filter((run) => run.allowed)).toHaveLength(1);
  expect(listed.size).toBe(r.dependsOnUses?.count);
  expect(listed.size).toBe(payProd.length);
});
