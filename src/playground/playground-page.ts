import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/** One file of the built page, ready to send. */
export interface PageFile {
  body: Buffer;
  contentType: string;
}

/** Where `npm run build` puts the page (scripts/build-playground.js): the same from src/ (tests) and dist/. */
export const PAGE_DIR = join(__dirname, '..', '..', 'dist', 'playground', 'page');

const FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'playground.js': 'text/javascript; charset=utf-8',
  'playground.css': 'text/css; charset=utf-8',
};

/**
 * The headers every page file goes with. The page loads nothing from elsewhere and sends nothing:
 * the CSP says so (`connect-src 'none'`). No `unsafe-eval`: the engine's schemas come compiled
 * (scripts/build-validators.js), nothing is compiled into a function in the page; inline styles are CodeMirror's.
 */
export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache',
};

/**
 * Reads the built page into memory once. Throws naming the fix when it was not built (a checkout
 * without `npm run build`); the npm package and the image ship it.
 */
export function readPlaygroundPage(dir: string = PAGE_DIR): ReadonlyMap<string, PageFile> {
  const files = new Map<string, PageFile>();
  for (const [name, contentType] of Object.entries(FILES)) {
    try {
      files.set(name, { body: readFileSync(join(dir, name)), contentType });
    } catch (err) {
      throw new Error(`the playground page is not built (${(err as Error).message}): run npm run build`);
    }
  }
  return files;
}

/** The page file a request path below the page's base asks for (`''` and `index.html` are the page). */
export function pageFileFor(files: ReadonlyMap<string, PageFile>, rest: string): PageFile | undefined {
  return files.get(rest === '' ? 'index.html' : rest);
}
