import type { ArchiveBlock } from './archive-blocks';
import { blockLines } from './archive-blocks';
import { archiveLine } from './read-records';
import { replayLine, type LineReplayer, type ReplayedLine } from './replay-line';

/** Every line of a block replayed, in order (blank lines are none): what a worker thread answers for a block. */
export function replayBlock(replayer: LineReplayer, block: ArchiveBlock): ReplayedLine[] {
  const out: ReplayedLine[] = [];
  const lines = blockLines(block.bytes);
  for (let i = block.skip; i < lines.length; i++) {
    const line = archiveLine(block.file, block.first + i, lines[i]);
    if (line) out.push(replayLine(replayer, line));
  }
  return out;
}
