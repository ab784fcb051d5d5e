import { existsSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { sharedParts } from '../compile/shared-parts';
import { keepLoadedFile, keepParsedFile, type LoadCache, type ParsedFile } from '../loading/load-bundle';

/** A worker's answer: ready for a chunk, or the files of its last chunk it read plainly and found valid. */
export type ParseAheadAnswer = { ready: true } | { parsed: ParsedFile[] };

/** What a worker is sent: the next chunk of policy files (paths), or `null` when there is none left. */
export type ParseAheadChunk = string[] | null;

/** The worker's script: compiled next to this module (run from TypeScript sources, as under jest, there is none). */
export const PARSE_AHEAD_SCRIPT = join(__dirname, 'parse-ahead-worker.js');

export interface ParseAheadOptions {
  /** Fewer files than this are left to the load: a worker's start costs more than they do. */
  minFiles?: number;
  /** Files per chunk. */
  chunkSize?: number;
  /** Whether this thread loads chunks itself while the worker is not up (default); false: only the worker parses. */
  ownChunks?: boolean;
  script?: string;
}

/** What the parsing ahead did: files put in the cache, those the workers parsed, and why none were when it did not run. */
export interface ParseAheadResult {
  kept: number;
  byWorker: number;
  skipped?: string;
}

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Start-up on more than one core (docs/decisions/0043): a worker thread reads, parses and checks
 * the schemas of the policy files, in chunks, and sends the files it found valid; this thread
 * compiles them (compiled checks are closures, which cannot cross threads) into `cache`, keyed by
 * each text's digest. Until the worker is up (its start and its modules take a while), this thread
 * loads chunks itself, as a load does. The load that follows (synchronous, as every load) still
 * reads every file and takes one from the cache only when its text has that digest: it stays the
 * one judge of the set, and a file the worker could not read plainly, or found invalid, is parsed
 * and reported by it as before. Never throws: a worker that fails leaves its files to the load.
 */
export async function parseAhead(
  files: readonly string[],
  cache: LoadCache,
  options: ParseAheadOptions = {},
): Promise<ParseAheadResult> {
  const { minFiles = 1000, chunkSize = 200, ownChunks = true } = options;
  const script = options.script ?? PARSE_AHEAD_SCRIPT;
  const none = (skipped: string) => ({ kept: 0, byWorker: 0, skipped });
  if (files.length < minFiles) return none(`${files.length} files, fewer than ${minFiles}`);
  if (availableParallelism() < 2) return none('one core');
  if (!existsSync(script)) return none(`no worker script at ${script}`);
  const chunks: string[][] = [];
  for (let at = 0; at < files.length; at += chunkSize) chunks.push(files.slice(at, at + chunkSize));
  chunks.reverse(); // taken from the end: the first files first
  const shared = sharedParts();
  let byWorker = 0;
  let own = 0;
  let up = false;
  const keep = (parsed: ParsedFile) => {
    try {
      if (keepParsedFile(cache, parsed, shared)) byWorker++;
    } catch {
      // A compiler that throws: the load meets it again and turns it into a problem.
    }
  };
  const worker = new Promise<void>((resolve) => {
    const thread = new Worker(script);
    let inFlight = 0;
    let ended = false;
    const end = () => {
      // What comes after this is not read: the load may have begun, and it reads the cache.
      ended = true;
      up = false;
      resolve();
      void thread.terminate();
    };
    const send = () => {
      const next = chunks.pop();
      if (next === undefined) return;
      inFlight++;
      thread.postMessage(next satisfies ParseAheadChunk);
    };
    const stopWhenDone = () => {
      if (chunks.length > 0 || inFlight > 0) return;
      thread.postMessage(null satisfies ParseAheadChunk);
      end();
    };
    thread.on('message', (answer: ParseAheadAnswer) => {
      if (ended) return;
      if ('ready' in answer) {
        up = true;
        // Two chunks in flight: the worker has the next while this thread compiles the last.
        send();
        send();
        return stopWhenDone();
      }
      inFlight--;
      for (const parsed of answer.parsed) keep(parsed);
      send();
      stopWhenDone();
    });
    thread.on('error', end);
    thread.on('exit', end);
  });
  // This thread's own chunks: while the worker is not up (yet, or any more).
  while (chunks.length > 0) {
    if (up || !ownChunks) {
      // Until it is done, or fails: then what is left is this thread's.
      await worker;
      if (!ownChunks) break;
      continue;
    }
    for (const file of chunks.pop() ?? []) {
      try {
        keepLoadedFile(cache, { file, text: readFileSync(file, 'utf8') }, shared);
        own++;
      } catch {
        // Unreadable, or a compiler that throws: the load reads it and says why.
      }
    }
    await nextTurn();
  }
  await worker;
  return { kept: byWorker + own, byWorker };
}
