import { Readable } from 'node:stream';
import { blockLines, lineBlocks, lineEnds } from '../../src/replay/archive-blocks';

/** The lines of the blocks of a stream of `chunks`, checking each block's first line number and the count handed out. */
const linesOf = async (chunks: Array<string | Buffer>): Promise<string[]> => {
  const out: string[] = [];
  const reader = lineBlocks('f', Readable.from(chunks.map((c) => Buffer.from(c))));
  for await (const block of reader.blocks) {
    expect(block.first).toBe(out.length + 1);
    out.push(...blockLines(block.bytes));
    expect(reader.lines()).toBe(out.length);
  }
  return out;
};

describe('lineBlocks: a byte stream in blocks of whole lines, split as readline splits them', () => {
  it('splits at \\n, \\r\\n and a lone \\r, and keeps empty lines between', async () => {
    expect(await linesOf(['a\nb\r\nc\rd\n\ne\n'])).toEqual(['a', 'b', 'c', 'd', '', 'e']);
  });

  it('joins a line split between chunks, and a \\r\\n split between them is one line end', async () => {
    expect(await linesOf(['{"a":', '1}\r', '\n{"b":2}\r', 'x\n'])).toEqual(['{"a":1}', '{"b":2}', 'x']);
  });

  it('a last line without its line end is a line; a stream ending with one has no empty line after it', async () => {
    expect(await linesOf(['a\nb'])).toEqual(['a', 'b']);
    expect(await linesOf(['a\n'])).toEqual(['a']);
    expect(await linesOf(['a\r'])).toEqual(['a']);
    expect(await linesOf(['a\r\r', '\nb'])).toEqual(['a', '', 'b']);
    expect(await linesOf([])).toEqual([]);
  });

  it('decodes a UTF-8 character split between two chunks', async () => {
    const bytes = Buffer.from('zone: Zürich\n');
    const cut = bytes.indexOf(0xc3) + 1; // between the two bytes of ü
    expect(await linesOf([bytes.subarray(0, cut), bytes.subarray(cut)])).toEqual(['zone: Zürich']);
  });

  it('a block ends at a line end: a \r that may be half a \r\n waits for the next chunk, also alone in one', async () => {
    const blocks: string[] = [];
    for await (const block of lineBlocks('f', Readable.from(['a\r', '\r', '\nb\nc'].map((c) => Buffer.from(c)))).blocks)
      blocks.push(block.bytes.toString());
    expect(blocks).toEqual(['a\r', '\r\nb\n', 'c']);
    expect(await linesOf(['\r', '\nb'])).toEqual(['', 'b']);
  });

  it('counts line ends as the lines they end (\r\n once)', () => {
    expect(lineEnds(Buffer.from('a\r\nb\rc\n\n'))).toBe(4);
    expect(lineEnds(Buffer.from('abc'))).toBe(0);
  });

  it('agrees with readline (crlfDelay: Infinity) on the same bytes cut anywhere', async () => {
    const { createInterface } = await import('node:readline');
    const text = 'one\r\ntwo\n\nthree\rfour\r\r\nfive';
    const expected: string[] = [];
    for await (const line of createInterface({ input: Readable.from([Buffer.from(text)]), crlfDelay: Infinity }))
      expected.push(line);
    for (let cut = 0; cut <= text.length; cut++)
      expect(await linesOf([text.slice(0, cut), text.slice(cut)])).toEqual(expected);
  });
});
