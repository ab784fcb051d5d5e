import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The version in the package.json shipped next to dist/ (the same file in the image and in the npm package). */
export function packageVersion(): string {
  const pkg = JSON.parse(readFileSync(join(__dirname, '..', '..', 'package.json'), 'utf8')) as { version?: unknown };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
