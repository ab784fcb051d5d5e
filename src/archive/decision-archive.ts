import type { PolicyBundle } from '../policy/core/compiled';
import { builtInNames } from '../policy/compile/built-in-policies';
import type { Facts } from '../policy/facts/facts';
import type { Need } from '../policy/facts/need';
import type { Decision } from '../policy/core/decision';
import type { Logger } from '../common/logger';
import type { Metrics } from '../observability/metrics';
import { preflightAnswer } from '../policy/core/preflight-answer';
import { ARCHIVE_FORMAT, type ArchiveRecord } from './archive-record';
import { maskAttributes } from '../redaction/mask-attributes';
import { archivedResults } from './archived-results';
import { redactDeep, targetRedactor } from '../redaction/target-redaction';

/** One decision as the route saw it; turned into an ArchiveRecord after the answer is out. */
export interface DecisionToArchive {
  decision: Decision;
  bundle: PolicyBundle;
  /** The parsed body as received. */
  payload: unknown;
  now: Date;
  needs: readonly Need[];
  facts: Facts;
  explain: boolean;
  /** A run in progress judged again by the guard (docs/guard.md): `decision` is on the set's guarded part. */
  whileRunning?: true;
}

/** Where archive lines go: one chunk of whole lines at a time; rejects on a write error. */
export interface LineWriter {
  write(chunk: string): Promise<void>;
  /** `deadlineMs` (epoch ms): by when what was written must be where it goes (an S3 upload). */
  close(deadlineMs?: number): Promise<void>;
}

export interface DecisionArchive {
  /** Queues the decision; never throws, never waits. */
  record(entry: DecisionToArchive): void;
  /** Writes what is queued, then closes the file (and, for S3, uploads it by `deadlineMs`). */
  close(deadlineMs?: number): Promise<void>;
}

export interface ArchiveDeps {
  writer: LineWriter;
  queueBytes: number;
  maskAttributes: readonly string[];
  metrics: Pick<Metrics, 'archive'>;
  logger: Logger;
  /** Errors are logged at most once per this many ms (each one is counted). */
  logEveryMs?: number;
}

/** Decisions recorded but not yet serialised wait here; more than this in one turn are dropped. */
const MAX_PENDING = 10_000;

/**
 * The archive line of a decision. With masked keys, their values are replaced in the payload, and
 * wherever the answer or a result quotes them (only a rule that read them can: replay reports such
 * a run as not replayable), so the values are written nowhere.
 */
export function toArchiveRecord(entry: DecisionToArchive, masked: ReadonlySet<string>): ArchiveRecord {
  const { decision } = entry;
  const payload = maskAttributes(entry.payload, masked);
  const hide = masked.size > 0 ? targetRedactor(entry.payload, { kind: 'keys', keys: [...masked] }) : undefined;
  const answer = preflightAnswer(decision, entry.explain);
  return {
    format: ARCHIVE_FORMAT,
    id: decision.id,
    at: entry.now.toISOString(),
    revision: entry.bundle.revision,
    builtIns: builtInNames(entry.bundle),
    explain: entry.explain,
    payload,
    ...(masked.size > 0 ? { masked: [...masked] } : {}),
    ...(entry.whileRunning ? { whileRunning: true as const } : {}),
    facts: { needs: [...entry.needs], ...entry.facts },
    answer: hide ? redactDeep(answer, hide) : answer,
    results: hide ? redactDeep(archivedResults(decision.results), hide) : archivedResults(decision.results),
  };
}

/**
 * The decision archive (docs/replay.md): every decision becomes one JSON line, written after the
 * answer is sent. Serialising waits for the next turn of the event loop (the answers of one turn go
 * out first); the queue of lines is bounded in bytes, and a record that does not fit is dropped and
 * counted (preflight_decision_archive_records_total{outcome="dropped"}), as is a failed write. No
 * error of the archive ever reaches an answer.
 */
export function decisionArchive(deps: ArchiveDeps): DecisionArchive {
  const masked = new Set(deps.maskAttributes);
  const count = (outcome: 'written' | 'dropped' | 'failed', n = 1) => deps.metrics.archive.inc({ outcome }, n);
  let pending: DecisionToArchive[] = [];
  let lines: string[] = [];
  let queued = 0;
  let writing: Promise<void> | undefined;
  let lastLog = -Infinity;
  let closed = false;
  const logError = (message: string, err: unknown) => {
    const now = Date.now();
    if (now - lastLog < (deps.logEveryMs ?? 60_000)) return;
    lastLog = now;
    deps.logger.error(message, { error: err instanceof Error ? err.message : String(err) });
  };

  const drain = async () => {
    while (lines.length > 0) {
      const batch = lines;
      lines = [];
      queued = 0;
      try {
        await deps.writer.write(batch.join(''));
        count('written', batch.length);
      } catch (err) {
        count('failed', batch.length);
        logError('decision archive: lines could not be written and are lost', err);
      }
    }
    writing = undefined;
  };

  const serialise = () => {
    const entries = pending;
    pending = [];
    for (const entry of entries) {
      let line: string;
      try {
        line = `${JSON.stringify(toArchiveRecord(entry, masked))}\n`;
      } catch (err) {
        count('failed');
        logError('decision archive: a decision could not be serialised', err);
        continue;
      }
      if (queued + line.length > deps.queueBytes) {
        count('dropped');
        continue;
      }
      lines.push(line);
      queued += line.length;
    }
    writing ??= drain();
  };

  return {
    record(entry) {
      // Full, or an answer forced out after shutdown closed the file: dropped and counted.
      if (closed || pending.length >= MAX_PENDING) return count('dropped');
      if (pending.push(entry) === 1) setImmediate(serialise);
    },
    async close(deadlineMs) {
      closed = true;
      if (pending.length > 0) serialise();
      while (writing) await writing;
      await deps.writer.close(deadlineMs);
    },
  };
}
