import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { runChild } from '../../bench/run-child';

/** Starts real node child processes: not in the unit lane. */
describe('runChild', () => {
  let dir: string;
  const script = (name: string, text: string) => {
    const file = join(dir, name);
    writeFileSync(file, text);
    return file;
  };
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'run-child-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it("returns the child's stdout", () => {
    expect(
      runChild(script('ok.js', 'console.log(JSON.stringify({ args: process.argv.slice(2) }))'), ['a', 'b'], 'ok'),
    ).toBe('{"args":["a","b"]}\n');
  });

  it('starts node with the given node options before the script', () => {
    const gcType = script('gc.js', 'console.log(typeof globalThis.gc)');
    expect(runChild(gcType, [], 'gc')).toBe('undefined\n');
    expect(runChild(gcType, [], 'gc', ['--expose-gc'])).toBe('function\n');
  });

  it('fails with the label, the exit code and the end of stderr when the child fails', () => {
    const failing = script('fail.js', 'console.error("large-run-child: /x does not load"); process.exit(2)');
    expect(() => runChild(failing, [], 'big runs, bundled policies')).toThrow(
      'big runs, bundled policies failed (exit code 2): large-run-child: /x does not load',
    );
  });

  it('fails when the child exits 0 but prints nothing', () => {
    expect(() => runChild(script('silent.js', ''), [], 'big runs, parse')).toThrow(
      'big runs, parse failed (exit code 0, nothing on stdout): no stderr',
    );
  });
});
