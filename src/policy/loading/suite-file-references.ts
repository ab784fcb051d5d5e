import type { PolicyDirListing } from './policy-dir-listing';
import { readPolicyDir } from './read-policy-dir';
import { suiteReadFiles } from './suite-read-files';

/**
 * The files the test suites below `dir` read (`payloadFile`, `signalsFile`), as absolute paths: they
 * belong in the policy directory though no policy is loaded from them. A suite that does not parse
 * names none (`validate` reports it). `from`: the directory, or the listing the load read.
 */
export function suiteFileReferences(from: string | PolicyDirListing): Set<string> {
  try {
    return suiteReadFiles(readPolicyDir(from, { tests: true }));
  } catch {
    return new Set();
  }
}
