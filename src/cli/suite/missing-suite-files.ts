import { accessSync, constants, readdirSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { closest } from '../../policy/compile/near-name';
import type { FieldPath } from '../../validation/field-path';
import type { PayloadSource, SuiteDocument } from './suite-schema';

/** The fields of a suite that name a file, read relative to the suite file. */
const FILE_FIELDS = ['payloadFile', 'signalsFile'] as const;

/** Why the file cannot be read, or undefined when it can. */
function unreadable(full: string): string | undefined {
  try {
    if (!statSync(full).isFile()) return `${full} is not a file`;
    accessSync(full, constants.R_OK);
    return undefined;
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT' || code === 'ENOTDIR') return `it does not exist (looked for ${full})`;
    return `${full} cannot be read (${code ?? (err as Error).message})`;
  }
}

function entries(dir: string, kind: 'file' | 'dir'): string[] {
  try {
    return readdirSync(dir, { withFileTypes: true })
      .filter((e) => (kind === 'file' ? e.isFile() : e.isDirectory()))
      .map((e) => e.name);
  } catch {
    return []; // no directory there: nothing to suggest
  }
}

/** An existing file one edit away from `written` (in its file name, else in its directory's name), as written. */
function nearFile(suiteDir: string, written: string): string | undefined {
  const full = resolve(suiteDir, written);
  const name = basename(full);
  const sibling = closest(name, entries(dirname(full), 'file'), 1);
  if (sibling !== undefined) return join(dirname(written), sibling);
  const folder = closest(basename(dirname(full)), entries(dirname(dirname(full)), 'dir'), 1);
  if (folder === undefined) return undefined;
  const candidate = join(dirname(dirname(written)), folder, name);
  return unreadable(resolve(suiteDir, candidate)) === undefined ? candidate : undefined;
}

/** The cases that read the defaults' `field` (they give none of their own). */
function readersOfDefault(doc: SuiteDocument, field: (typeof FILE_FIELDS)[number]): string {
  const own = (c: PayloadSource) =>
    field === 'payloadFile' ? c.payload !== undefined || c.payloadFile !== undefined : false;
  const names = doc.cases.filter((c) => !own(c)).map((c) => `"${c.name}"`);
  if (names.length === 0) return 'no case reads it';
  if (names.length === doc.cases.length) return 'every case reads it';
  const more = names.length > 3 ? `, and ${names.length - 3} more` : '';
  return `read by ${names.length} case${names.length === 1 ? '' : 's'}: ${names.slice(0, 3).join(', ')}${more}`;
}

/**
 * Every `payloadFile` and `signalsFile` of the suite that cannot be read, where it is written, with
 * the case that reads it and an existing file one edit away: `validate` and `test` refuse the suite
 * before any case runs.
 */
export function missingSuiteFiles(suiteFile: string, doc: SuiteDocument): Array<{ path: FieldPath; message: string }> {
  const suiteDir = dirname(suiteFile);
  const out: Array<{ path: FieldPath; message: string }> = [];
  const check = (source: PayloadSource, at: FieldPath, who: (field: (typeof FILE_FIELDS)[number]) => string) => {
    for (const field of FILE_FIELDS) {
      const written = source[field];
      if (written === undefined) continue;
      const why = unreadable(resolve(suiteDir, written));
      if (why === undefined) continue;
      const near = nearFile(suiteDir, written);
      out.push({
        path: [...at, field],
        message: `${who(field)} ${field} ${written}, but ${why}${near === undefined ? '' : `; did you mean ${near}?`}`,
      });
    }
  };
  if (doc.defaults) check(doc.defaults, ['defaults'], (field) => `the defaults (${readersOfDefault(doc, field)}) give`);
  doc.cases.forEach((c, i) => check(c, ['cases', i], () => `case "${c.name}" reads`));
  return out;
}
