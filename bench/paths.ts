import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The repository root, found from this file whether it runs compiled (.bench/build/bench) or from Jest. */
export function repoRoot(from: string = __dirname): string {
  let dir = from;
  while (!existsSync(join(dir, 'package.json')) || !existsSync(join(dir, 'tsconfig.json'))) {
    const up = dirname(dir);
    if (up === dir) throw new Error(`no package.json above ${from}`);
    dir = up;
  }
  return dir;
}
