import { parentPort, workerData } from 'node:worker_threads';
import { loadPolicyDir } from '../policy/loading/load-policy-dir';
import { replayBlock } from './replay-block';
import { lineReplayer } from './replay-line';
import type { BlockMessage, ReplayWorkerSettings, WorkerAnswer } from './replay-workers';

/**
 * A replay worker thread (replay-workers.ts): loads the proposed set, then replays each block it
 * is sent and answers with its lines. Refuses to start on a set whose revision is not the one the
 * replay loaded (a file changed in between): every block must be decided on the same set.
 */
function main(): void {
  const port = parentPort;
  if (!port) throw new Error('replay-worker runs as a worker thread');
  const settings = workerData as ReplayWorkerSettings;
  const send = (answer: WorkerAnswer) => port.postMessage(answer);
  const loaded = loadPolicyDir(settings.policyDir);
  if (!loaded.ok || loaded.bundle.revision !== settings.revision) {
    send({
      ready: false,
      error: `the policy set in ${settings.policyDir} ${loaded.ok ? `is revision ${loaded.bundle.revision} now, not ${settings.revision}: it changed while the replay started` : 'no longer loads'}`,
    });
    return;
  }
  const since = settings.since === undefined ? undefined : new Date(settings.since);
  const until = settings.until === undefined ? undefined : new Date(settings.until);
  const replayer = lineReplayer(loaded.bundle, settings.policyDir, since, until);
  port.on('message', (block: BlockMessage) => {
    try {
      const bytes = Buffer.from(block.bytes.buffer, block.bytes.byteOffset, block.bytes.length);
      send({ id: block.id, lines: replayBlock(replayer, { ...block, bytes }) });
    } catch (err) {
      send({ id: block.id, error: err instanceof Error ? (err.stack ?? err.message) : String(err) });
    }
  });
  send({ ready: true });
}

main();
