import { ignoredFilesWarning } from '../policy/loading/ignored-policy-files';
import type { Logger } from '../common/logger';

/**
 * The report of the files in the policy directory the loader does not read (`prod.json`,
 * `prod.yaml.bak`), to call at start-up and after each reload with the files the reload found
 * (PolicyReloader.filesNotLoaded): it warns once per distinct list of such files, naming them, so a
 * file added later is told and a directory that stays the same is not told again.
 */
export function ignoredFilesReporter(dir: string, logger: Logger): (ignored: readonly string[]) => void {
  let told = '';
  return (ignored) => {
    const key = ignored.join('\n');
    if (key === told) return;
    told = key;
    const message = ignoredFilesWarning(ignored);
    if (message !== undefined) logger.warn(`policy directory: ${message}`, { policyDir: dir, ignored });
  };
}
