import { readPolicyDir } from './read-policy-dir';
import { suiteReadFiles } from './suite-read-files';

/**
 * The files the test suites below `dir` read (`payloadFile`, `signalsFile`), as absolute paths: they
 * belong in the policy directory though no policy is loaded from them. A suite that does not parse
 * names none (`validate` reports it).
 */
export function suiteFileReferences(dir: string): Set<string> {
  try {
    return suiteReadFiles(readPolicyDir(dir, { tests: true }));
  } catch {
    return new Set();
  }
}
