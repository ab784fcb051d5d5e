import { dirname, resolve } from 'node:path';
import { yamlLibrary } from '../../common/yaml-library';
import type { SourceFile } from '../compile/yaml-source';

/** The fields of a suite (its defaults and each case) that name a file, read relative to the suite file. */
const FILE_FIELDS = ['payloadFile', 'signalsFile'] as const;

function namedFiles(part: unknown): string[] {
  if (typeof part !== 'object' || part === null) return [];
  const record = part as Record<string, unknown>;
  return FILE_FIELDS.map((f) => record[f]).filter((v): v is string => typeof v === 'string');
}

/**
 * The files the given test suites read (`payloadFile`, `signalsFile`), as absolute paths. A suite
 * that does not parse names none (`validate` and `test` report it).
 */
export function suiteReadFiles(suites: readonly SourceFile[]): Set<string> {
  const out = new Set<string>();
  for (const suite of suites) {
    let doc: unknown;
    try {
      doc = yamlLibrary().parse(suite.text);
    } catch {
      continue;
    }
    const { defaults, cases } = (typeof doc === 'object' && doc !== null ? doc : {}) as Record<string, unknown>;
    const parts = [defaults, ...(Array.isArray(cases) ? cases : [])];
    for (const written of parts.flatMap(namedFiles)) out.add(resolve(dirname(suite.file), written));
  }
  return out;
}
