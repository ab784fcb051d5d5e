import { execFileSync } from 'node:child_process';
import { createWriteStream, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { once } from 'node:events';
import { availableParallelism, loadavg } from 'node:os';
import { createGzip } from 'node:zlib';
import { closedPath } from '../src/archive/archive-files';
import { toArchiveRecord } from '../src/archive/decision-archive';
import { loadPolicyDir } from '../src/policy/loading/load-policy-dir';
import { decide } from '../src/policy/engine/decide';
import type { PreflightPayload } from '../src/policy/core/decision';
import { freshFacts } from '../test/helpers/policy-sets/fresh-facts';
import { generatePolicySet } from '../test/helpers/policy-sets/generate-policies';
import type { PayloadVariant } from './payload-variants';

export interface ReplayFigures {
  records: number;
  policies: number;
  /** Wall time of the replay (the policy set loaded first, not counted). */
  seconds: number;
  /** CPU time of the replay process in that time: on a busy machine, what the replay itself cost. */
  cpuSeconds: number;
  decisionsPerSecond: number;
  peakRssMb: number;
  /** The machine's 1-minute load average when the replay ended, and its cores: wall time on a busy machine is shared. */
  loadAverage: number;
  cores: number;
  /** Records replayed with the answer they were archived with (all of them, when replay is exact). */
  unchanged: number;
  replayed: number;
  archiveMb: number;
}

const RECORDS_PER_FILE = 25_000;
const T0 = Date.parse('2026-11-02T00:00:00Z');

/**
 * Writes an archive of `records` decisions against a generated set of `policies` (the bench's
 * payload variants, each with its own execution id and decision time, decided by the engine as
 * the service would and written as the service writes them: one writer's files of 25,000, gzipped), then
 * replays it in a child process against the same set. Returns the replay's figures.
 */
export async function replayStage(
  work: string,
  records: number,
  policies: number,
  kinds: readonly string[],
  variants: readonly PayloadVariant[],
  childScript: string,
): Promise<ReplayFigures> {
  const dir = join(work, `replay-policies-${policies}`);
  mkdirSync(dir, { recursive: true });
  for (const f of generatePolicySet(policies, kinds)) writeFileSync(join(dir, f.file), f.text);
  const loaded = loadPolicyDir(dir);
  if (!loaded.ok) throw new Error(`${dir} does not load`);
  const bundle = loaded.bundle;
  const states = await freshFacts(bundle, variants);
  const needs = bundle.needs;
  const archive = join(work, `archive-${records}-${policies}`);
  mkdirSync(archive, { recursive: true });
  let bytes = 0;
  for (let file = 0; file * RECORDS_PER_FILE < records; file++) {
    const gzip = createGzip();
    // Named as one writer's closed files are (closed at the last decision's time): one stream, read in order.
    const last = Math.min(records, (file + 1) * RECORDS_PER_FILE) - 1;
    const out = createWriteStream(
      `${closedPath(join(archive, 'decisions-bench.jsonl'), new Date(T0 + last * 6_000 + 1))}.gz`,
    );
    gzip.pipe(out);
    for (let i = file * RECORDS_PER_FILE; i < Math.min(records, (file + 1) * RECORDS_PER_FILE); i++) {
      const v = i % variants.length;
      const payload = {
        ...variants[v].payload,
        execution: { ...variants[v].payload.execution, id: i + 1 },
      } as PreflightPayload;
      const now = new Date(T0 + i * 6_000);
      const decision = decide(bundle, payload, states[v], now, { decisionId: `bench-${i}` });
      const line = `${JSON.stringify(toArchiveRecord({ decision, bundle, payload, now, needs, facts: states[v], explain: false }, new Set()))}\n`;
      bytes += line.length;
      if (!gzip.write(line)) await once(gzip, 'drain');
    }
    gzip.end();
    await once(out, 'finish');
  }
  const result = JSON.parse(
    execFileSync(process.execPath, [childScript, archive, dir], { encoding: 'utf8', maxBuffer: 1024 ** 2 }),
  ) as { seconds: number; cpuSeconds: number; counts: { replayed: number; unchanged: number }; peakRssMb: number };
  return {
    loadAverage: loadavg()[0],
    cores: availableParallelism(),
    records,
    policies,
    seconds: result.seconds,
    cpuSeconds: result.cpuSeconds,
    decisionsPerSecond: result.counts.replayed / result.seconds,
    peakRssMb: result.peakRssMb,
    unchanged: result.counts.unchanged,
    replayed: result.counts.replayed,
    archiveMb: bytes / 2 ** 20,
  };
}
