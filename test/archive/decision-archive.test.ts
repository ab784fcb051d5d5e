import {
  decisionArchive,
  toArchiveRecord,
  type DecisionToArchive,
  type LineWriter,
} from '../../src/archive/decision-archive';
import { createMetrics } from '../../src/observability/metrics';
import { decide } from '../../src/policy/engine/decide';
import { capturingLogger } from '../helpers/capturing-logger';
import { preflightWith } from '../helpers/fixtures';
import { bundleFrom } from '../helpers/bundle-from';

const bundle = bundleFrom({
  'p.yaml':
    'kind: Policy\nname: no-kube-system\nrules:\n  - targetAttributes: {forbid: {container.engine: [docker]}}\n',
});
const payload = preflightWith((p) => {
  p.execution.id = 7;
});
const now = new Date('2026-11-23T21:00:00Z');
const entry = (): DecisionToArchive => ({
  decision: decide(bundle, payload, {}, now, { decisionId: 'd-1' }),
  bundle,
  payload,
  now,
  needs: [],
  facts: {},
  explain: false,
});

function setup(writer: LineWriter, queueBytes = 1024 ** 2) {
  const metrics = createMetrics({ defaultMetrics: false });
  const { logger, lines: errors } = capturingLogger('error');
  const archive = decisionArchive({ writer, queueBytes, maskAttributes: [], metrics, logger });
  const count = async () =>
    (await metrics.registry.getSingleMetricAsString('preflight_decision_archive_records_total'))
      .split('\n')
      .filter((l) => !l.startsWith('#'))
      .join('\n');
  return { archive, count, errors };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

test('records are written as one JSON line each, after the turn that recorded them', async () => {
  const chunks: string[] = [];
  const { archive, count } = setup({
    write: async (c) => {
      chunks.push(c);
    },
    close: async () => undefined,
  });
  archive.record(entry());
  archive.record(entry());
  expect(chunks).toEqual([]);
  await archive.close();
  const lines = chunks
    .join('')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l));
  expect(lines).toHaveLength(2);
  expect(lines[0]).toMatchObject({
    format: 1,
    id: 'd-1',
    at: '2026-11-23T21:00:00.000Z',
    revision: bundle.revision,
    builtIns: [],
    explain: false,
    facts: { needs: [] },
    answer: { status: 403 },
  });
  expect(lines[0].payload).toEqual(payload);
  expect(await count()).toContain('outcome="written"} 2');
});

test('when the queue is full, records are dropped and counted; the writer is never waited for', async () => {
  let release: () => void = () => undefined;
  const blocked = new Promise<void>((resolve) => {
    release = resolve;
  });
  const line = `${JSON.stringify(toArchiveRecord(entry(), new Set()))}\n`;
  const { archive, count } = setup({ write: () => blocked, close: async () => undefined }, line.length * 2);
  for (let i = 0; i < 3; i++) archive.record(entry()); // the first batch goes to the writer (which hangs)
  await tick();
  for (let i = 0; i < 3; i++) archive.record(entry()); // two fit in the queue, one does not
  await tick();
  expect(await count()).toContain('outcome="dropped"} 2');
  release();
  await archive.close();
  expect(await count()).toContain('outcome="written"} 4');
});

test('a failed write is counted and logged (once a minute), and later writes go on', async () => {
  let fail = true;
  const { archive, count, errors } = setup({
    write: async () => {
      if (fail) throw new Error('ENOSPC: no space left on device');
    },
    close: async () => undefined,
  });
  archive.record(entry());
  await tick();
  await tick();
  archive.record(entry());
  await tick();
  await tick();
  fail = false;
  archive.record(entry());
  await archive.close();
  expect(await count()).toMatch(
    /outcome="written"} 1[\s\S]*outcome="failed"} 2|outcome="failed"} 2[\s\S]*outcome="written"} 1/,
  );
  expect(errors.map((l) => l.message)).toEqual(['decision archive: lines could not be written and are lost']);
});

test('a record after close is dropped, not written to a reopened file', async () => {
  const chunks: string[] = [];
  const { archive, count } = setup({
    write: async (c) => {
      chunks.push(c);
    },
    close: async () => undefined,
  });
  await archive.close();
  archive.record(entry());
  await tick();
  expect(chunks).toEqual([]);
  expect(await count()).toContain('outcome="dropped"} 1');
});

test('masked keys: their values are replaced in the payload and wherever the answer quotes them; the payload itself is untouched', () => {
  const record = toArchiveRecord(entry(), new Set(['container.engine']));
  const text = JSON.stringify(record);
  expect(record.masked).toEqual(['container.engine']);
  expect(text).not.toContain('docker"');
  expect(text).toContain('{"key":"container.engine","value":"[redacted]"}');
  expect(JSON.stringify(record.answer)).toContain('[redacted]');
  expect(JSON.stringify(payload)).toContain('"key":"container.engine","value":"docker"');
  expect(text).toContain('"key":"container.host","value":"docker-desktop"');
  const host = toArchiveRecord(entry(), new Set(['container.host/name']));
  expect(JSON.stringify(host.payload)).toContain(
    '{"key":"container.host/name","operator":"EQUALS","values":["[redacted]"]}',
  );
  expect(JSON.stringify(host)).not.toContain('docker-desktop/minikube');
});
