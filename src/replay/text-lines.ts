import { StringDecoder } from 'node:string_decoder';

/** What ends a line, as readline reads it with `crlfDelay: Infinity`: \r\n, \n, or a \r alone. */
const LINE_END = /\r\n|\n|\r/;

/**
 * The lines of a UTF-8 byte stream, one chunk at a time: a chunk's lines are handed out before the
 * next chunk is read. Not readline's async iterator: that queues up to 1,024 lines ahead of the
 * reader (6 MB of archive records), which then outlive two scavenges and are promoted, so the
 * replay's peak RSS rose with the archive's length (docs/decisions/0009-no-per-request-set-entries.md).
 * Lines are split as readline splits them, and a last line without its end is a line too.
 */
export async function* textLines(input: AsyncIterable<Buffer>): AsyncGenerator<string> {
  const decoder = new StringDecoder('utf8');
  let rest = '';
  for await (const chunk of input) {
    let text = rest + decoder.write(chunk);
    // A \r at the end may be the first half of a \r\n split between two chunks: kept for the next.
    const heldReturn = text.endsWith('\r');
    if (heldReturn) text = text.slice(0, -1);
    const lines = text.split(LINE_END);
    rest = (lines.pop() ?? '') + (heldReturn ? '\r' : '');
    yield* lines;
  }
  const last = rest + decoder.end();
  const lines = last.split(LINE_END);
  // Text ending with its line end leaves an empty piece after it, which is no line.
  if (lines.at(-1) === '') lines.pop();
  yield* lines;
}
