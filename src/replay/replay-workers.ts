import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { ArchiveBlock } from './archive-blocks';
import type { ReplayedLine } from './replay-line';

/** What a replay worker thread needs to decide blocks as this thread would (replay-worker.ts). */
export interface ReplayWorkerSettings {
  policyDir: string;
  /** The revision of the proposed set this thread loaded: a worker that loads another one refuses to start. */
  revision: string;
  since?: string;
  until?: string;
}

/** A block as sent to a worker: its bytes in an ArrayBuffer of their own, moved, not copied, to the worker. */
export interface BlockMessage {
  id: number;
  file: string;
  first: number;
  skip: number;
  bytes: Uint8Array;
}

export type WorkerAnswer =
  | { ready: true }
  | { ready: false; error: string }
  | { id: number; lines: ReplayedLine[] }
  | { id: number; error: string };

export interface ReplayWorkers {
  size: number;
  /** The block's lines replayed on the least busy worker. */
  decide(block: ArchiveBlock): Promise<ReplayedLine[]>;
  stop(): Promise<void>;
}

/** The worker's script: compiled next to this module (run from TypeScript sources, as under jest, there is none). */
export const WORKER_SCRIPT = join(__dirname, 'replay-worker.js');

interface Pending {
  resolve: (lines: ReplayedLine[]) => void;
  reject: (err: Error) => void;
}

class ReplayWorker {
  readonly pending = new Map<number, Pending>();
  failure?: Error;

  constructor(readonly thread: Worker) {
    thread.on('message', (answer: WorkerAnswer) => {
      if (!('id' in answer)) return;
      const waiting = this.pending.get(answer.id);
      this.pending.delete(answer.id);
      if ('error' in answer) waiting?.reject(new Error(`replay worker: ${answer.error}`));
      else waiting?.resolve(answer.lines);
    });
    thread.on('error', (err) => this.fail(err));
    thread.on('exit', (code) => this.fail(new Error(`replay worker exited (code ${code})`)));
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const waiting of this.pending.values()) waiting.reject(err);
    this.pending.clear();
  }
}

/** The first message of a worker: ready, or why it cannot decide (a policy set that does not load, another revision). */
function ready(thread: Worker): Promise<void> {
  return new Promise((resolve, reject) => {
    const onError = (err: Error) => reject(err);
    thread.once('error', onError);
    thread.once('message', (answer: WorkerAnswer) => {
      thread.off('error', onError);
      if ('ready' in answer && answer.ready) resolve();
      else reject(new Error('error' in answer ? answer.error : 'replay worker: an unexpected first message'));
    });
  });
}

/**
 * `count` worker threads, each with the proposed set loaded from `settings.policyDir` (compiled
 * sets cannot be sent between threads). Blocks go to the worker with the fewest in flight; each
 * answer is a promise, taken in archive order by the caller.
 */
export async function startReplayWorkers(count: number, settings: ReplayWorkerSettings): Promise<ReplayWorkers> {
  const threads = Array.from({ length: count }, () => new Worker(WORKER_SCRIPT, { workerData: settings }));
  const workers = threads.map((t) => new ReplayWorker(t));
  const stop = async () => {
    await Promise.all(threads.map((t) => t.terminate()));
  };
  try {
    await Promise.all(threads.map(ready));
  } catch (err) {
    await stop();
    throw err;
  }
  let next = 0;
  return {
    size: count,
    decide(block) {
      const worker = workers.reduce((a, b) => (b.pending.size < a.pending.size ? b : a));
      if (worker.failure) return Promise.reject(worker.failure);
      const id = next++;
      const bytes = new Uint8Array(block.bytes);
      const message: BlockMessage = { id, file: block.file, first: block.first, skip: block.skip, bytes };
      const answer = new Promise<ReplayedLine[]>((resolve, reject) => worker.pending.set(id, { resolve, reject }));
      // Awaited in archive order, maybe after a later block failed: never an unhandled rejection meanwhile.
      answer.catch(() => undefined);
      worker.thread.postMessage(message, [bytes.buffer]);
      return answer;
    },
    stop,
  };
}
