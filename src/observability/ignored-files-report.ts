import { ignoredFilesWarning, ignoredPolicyFiles } from '../policy/loading/ignored-policy-files';
import { suiteFileReferences } from '../policy/loading/suite-file-references';
import type { Logger } from '../common/logger';

/**
 * A check of the policy directory for files the loader does not read (`prod.json`, `prod.yaml.bak`),
 * to call at start-up and after each reload: it warns once per distinct list of such files, naming
 * them, so a file added later is told and a directory that stays the same is not told again.
 */
export function ignoredFilesReporter(dir: string, logger: Logger): () => void {
  let told = '';
  return () => {
    const ignored = ignoredPolicyFiles(dir, suiteFileReferences(dir));
    const key = ignored.join('\n');
    if (key === told) return;
    told = key;
    const message = ignoredFilesWarning(ignored);
    if (message !== undefined) logger.warn(`policy directory: ${message}`, { policyDir: dir, ignored });
  };
}
