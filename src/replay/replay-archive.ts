import { USES_DEPENDENCE_RULE } from './uses-dependence';
import type { PolicyBundle } from '../policy/core/compiled';
import type { ArchiveStream } from './archive-sources';
import { mergeByTime } from './archive-lines';
import { readBlocks } from './read-records';
import { replayBlock } from './replay-block';
import { lineReplayer, type ReplayedLine } from './replay-line';
import { ReplayTally, type ReplayReport } from './replay-report';
import { startReplayWorkers, type ReplayWorkers } from './replay-workers';
import { stampOf } from '../archive/archive-files';

export interface ReplayOptions {
  streams: readonly ArchiveStream[];
  archive: string;
  policyDir: string;
  bundle: PolicyBundle;
  since?: Date;
  until?: Date;
  /** Runs listed per kind of change (counts are always complete). */
  listed: number;
  /** Called for each problem and run that cannot be replayed, as met (the CLI warns on stderr). */
  warn?: (where: string, message: string) => void;
  /**
   * Worker threads that decide (each loads `policyDir` itself, and must find `bundle`'s revision);
   * 0 (the default) decides in this thread. The report is the same either way.
   */
  workers?: number;
}

/** Blocks in flight per writer's stream with worker threads: enough to keep every worker busy, few enough to keep memory flat. */
const IN_FLIGHT_PER_WORKER = 2;

/** The replayed lines of one writer's files, in order; files closed before `since` are not opened. */
async function* streamReplayed(
  stream: ArchiveStream,
  since: Date | undefined,
  decide: (block: Parameters<typeof replayBlock>[1]) => Promise<ReplayedLine[]> | ReplayedLine[],
  inFlight: number,
): AsyncGenerator<ReplayedLine> {
  const from = since && stampOf(since);
  const pending: Array<Promise<ReplayedLine[]> | ReplayedLine[]> = [];
  for (const file of stream.files) {
    if (from !== undefined && file.closedAt !== undefined && file.closedAt.slice(0, from.length) < from) continue;
    for await (const block of readBlocks(file.path)) {
      pending.push('bytes' in block ? decide(block) : [{ ...block, at: '' }]);
      // Read ahead while the workers decide; hand out the oldest block's lines once enough are in flight.
      if (pending.length >= inFlight) yield* await (pending.shift() as Promise<ReplayedLine[]>);
    }
  }
  while (pending.length > 0) yield* await (pending.shift() as Promise<ReplayedLine[]>);
}

/** One replayed line into the report, in archive order (the same order with or without worker threads). */
function take(tally: ReplayTally, line: ReplayedLine, revision: string, warn: ReplayOptions['warn']): void {
  const { counts } = tally.report;
  switch (line.kind) {
    case 'damaged':
      tally.damaged({ file: line.file, line: line.line, message: line.message });
      return;
    case 'problem':
      tally.problem(line.where, line.message);
      warn?.(line.where, line.message);
      return;
    case 'out-of-range':
      counts.records++;
      counts.outOfRange++;
      return;
    case 'not-replayable':
      counts.records++;
      tally.notReplayable(line.run, line.reason);
      warn?.(line.where, `run ${line.id} cannot be replayed: ${line.reason}`);
      return;
    case 'replayed': {
      counts.records++;
      tally.replayed(line.revision);
      if (line.dependsOnUses) tally.dependsOnUses(line.dependsOnUses);
      if (!line.changed) {
        counts.unchanged++;
        return;
      }
      const sameRevision = line.revision === revision;
      tally.changed(line.changed, sameRevision);
      if (sameRevision)
        warn?.(
          line.where,
          `run ${line.id}: the policy revision that decided it (${line.revision}) answers differently now; replay is not exact for this run (please report it)`,
        );
    }
  }
}

/**
 * Replays an archive against a proposed policy set: every record in the time range is decided
 * again (replay-line.ts) and compared with what was answered. Streams the archive, block by block
 * of whole lines; with worker threads, blocks are decided on them while this thread reads ahead,
 * and their lines are taken in archive order. Holds one bundle per distinct set of built-ins, the
 * blocks in flight and a bounded report.
 */
export async function replayArchive(opts: ReplayOptions): Promise<ReplayReport> {
  const tally = new ReplayTally({
    archive: opts.archive,
    policyDir: opts.policyDir,
    revision: opts.bundle.revision,
    since: opts.since?.toISOString(),
    until: opts.until?.toISOString(),
    listed: opts.listed,
  });
  if (opts.bundle.exceptions.some((e) => e.maxUses !== undefined))
    tally.report.dependsOnUses = { rule: USES_DEPENDENCE_RULE, count: 0, runs: [] };
  const workers: ReplayWorkers | undefined =
    (opts.workers ?? 0) > 0
      ? await startReplayWorkers(opts.workers as number, {
          policyDir: opts.policyDir,
          revision: opts.bundle.revision,
          since: opts.since?.toISOString(),
          until: opts.until?.toISOString(),
        })
      : undefined;
  try {
    const replayer = lineReplayer(opts.bundle, opts.policyDir, opts.since, opts.until);
    const decide = workers
      ? workers.decide
      : (block: Parameters<typeof replayBlock>[1]) => replayBlock(replayer, block);
    const inFlight = workers ? IN_FLIGHT_PER_WORKER * workers.size : 1;
    const lines = mergeByTime(
      opts.streams.map((s) => streamReplayed(s, opts.since, decide, inFlight)),
      (line) => line.at,
    );
    for await (const line of lines) take(tally, line, opts.bundle.revision, opts.warn);
  } finally {
    await workers?.stop();
  }
  return tally.finish();
}
