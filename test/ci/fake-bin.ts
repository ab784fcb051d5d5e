import { spawnSync } from 'node:child_process';
import { mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Where a program is (a path), or undefined when there is none. */
export type LocateProgram = (name: string) => string | undefined;

/** `command -v` on this machine. */
export const locateOnThisMachine: LocateProgram = (name) =>
  spawnSync('bash', ['-c', `command -v ${name}`], { encoding: 'utf8' }).stdout.trim() || undefined;

/**
 * Writes the fake `name` into `bin` with exclusive create (`wx`): where anything is already at that
 * name, a link above all, it throws EEXIST instead of writing through the link into the file it
 * points at (a fake `id` written over a link once replaced this machine's own /usr/bin/id).
 */
export function writeFake(bin: string, name: string, script: string): void {
  writeFileSync(join(bin, name), `#!${join(bin, 'bash')}\n${script}\n`, { mode: 0o755, flag: 'wx' });
}

/**
 * A new temporary directory to be a whole PATH: links to bash, `id` and the given programs (where
 * `locate` finds them), and the fakes (name -> bash script). A program with a fake gets no link,
 * so no fake is ever written where a link is.
 */
export function fakeBin(
  programs: string[],
  fakes: Record<string, string> = {},
  locate: LocateProgram = locateOnThisMachine,
): string {
  const bin = mkdtempSync(join(tmpdir(), 'pg-deps-'));
  for (const p of ['bash', 'id', ...programs].filter((name) => !(name in fakes))) {
    const found = locate(p);
    if (!found) throw new Error(`${p} is not on this machine`);
    symlinkSync(found, join(bin, p));
  }
  for (const [name, script] of Object.entries(fakes)) writeFake(bin, name, script);
  return bin;
}
