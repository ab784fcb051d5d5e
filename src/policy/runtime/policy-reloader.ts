import type { Logger } from '../../observability/logger';
import type { Metrics } from '../../observability/metrics';
import { loadBundle, revisionOf, type LoadResult } from '../loading/load-bundle';
import { formatProblem, type LoadProblem } from '../loading/load-error';
import type { LoadTrigger, PolicyStore } from './policy-store';
import type { PolicySync } from './policy-sync';
import { readPolicyDir } from '../loading/read-policy-dir';
import type { SourceFile } from '../loading/yaml-source';

export type ReloadOutcome =
  | { result: 'success'; revision: string; previous?: string }
  | { result: 'unchanged'; revision: string }
  | { result: 'failure'; problems: LoadProblem[]; revisionInUse?: string };

export interface PolicyReloader {
  /** Reads, validates and (only if fully valid) swaps in the policy set. Synchronous: never interleaves with a request. */
  reload(trigger: LoadTrigger): ReloadOutcome;
  /** Whether the files on disk are the set served, as of the last attempt (undefined before the first). */
  sync(): PolicySync | undefined;
}

export interface ReloaderDeps {
  dir: string;
  store: PolicyStore;
  metrics: Metrics;
  logger: Logger;
  clock?: () => Date;
}

function dirProblem(dir: string, message: string): LoadProblem {
  return { file: dir, line: 1, col: 1, path: '', message, severity: 'error' };
}

type DirReading = { sources: SourceFile[] } | { problem: LoadProblem; reason: 'missing' | 'unreadable' };

/** The files of the policy directory, read once: the hash and the load see the same bytes. */
function readSources(dir: string): DirReading {
  try {
    const sources = readPolicyDir(dir);
    if (sources.length > 0) return { sources };
    return { reason: 'missing', problem: dirProblem(dir, 'no policy files (*.yaml, *.yml) found: refusing to run with an empty policy set') };
  } catch (err) {
    const reason = (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'missing' : 'unreadable';
    return { reason, problem: dirProblem(dir, `cannot read the policy directory: ${(err as Error).message} (set POLICY_DIR to a directory of policy YAML files)`) };
  }
}

/**
 * loadBundle turns every known bad input into a problem; should an unknown one still throw, the
 * reload is rejected like any invalid set instead of the exception escaping a watcher callback
 * (which would end the process) while the set in use keeps serving.
 */
function loadSafely(sources: SourceFile[], now: Date, dir: string): LoadResult {
  try {
    return loadBundle(sources, now);
  } catch (err) {
    return { ok: false, problems: [dirProblem(dir, `internal error while loading the policy set: ${err instanceof Error ? err.message : String(err)}`)] };
  }
}

/**
 * Loads the policy directory into the store. A set replaces the one in use only when every file
 * is valid; otherwise the old set keeps serving and the failure is logged, counted and shown on
 * /readyz. Content that did not change since the last attempt is neither reloaded nor counted.
 */
export function createPolicyReloader(deps: ReloaderDeps): PolicyReloader {
  const { dir, store, metrics, logger } = deps;
  const clock = deps.clock ?? (() => new Date());
  let lastAttempt: string | undefined;
  let sync: PolicySync | undefined;
  const setSync = (next: PolicySync) => {
    sync = next;
    metrics.policyFilesInSync.set(next.inSync ? 1 : 0);
  };

  const fail = (trigger: LoadTrigger, problems: LoadProblem[], reason: 'rejected' | 'missing' | 'unreadable', rejectedRevision?: string): ReloadOutcome => {
    const revisionInUse = store.current()?.revision;
    const message = problems.find((p) => p.severity === 'error');
    setSync({ inSync: false, reason, message: message ? formatProblem(message) : 'invalid', diskRevision: rejectedRevision, servedRevision: revisionInUse, checkedAt: clock().toISOString() });
    store.rejected(problems, { trigger, rejectedRevision });
    metrics.reloads.inc({ result: 'failure' });
    const errors = problems.filter((p) => p.severity === 'error').map(formatProblem);
    const keeps = revisionInUse ? `still serving revision ${revisionInUse}` : 'no policy set is in use';
    logger.error(`policy set rejected (${trigger}): ${errors[0] ?? 'invalid'}; ${keeps}`, { trigger, revisionInUse, rejectedRevision, problems: errors });
    return { result: 'failure', problems, revisionInUse };
  };

  return {
    sync: () => sync,
    reload(trigger) {
      const read = readSources(dir);
      const attempt = 'sources' in read ? revisionOf(read.sources) : `unreadable: ${read.problem.message}`;
      const previous = store.current()?.revision;
      if (attempt === lastAttempt && previous !== undefined) {
        // Watch events without a content change are routine (editors, ConfigMap refreshes); SIGHUP is asked for.
        const level = trigger === 'SIGHUP' ? (sync?.inSync === false ? 'warn' : 'info') : 'debug';
        const message = sync?.inSync === false
          ? `policy reload skipped: the files are unchanged since they were rejected (${sync.message}); still serving revision ${previous}`
          : 'policy reload skipped: content unchanged';
        logger.log(level, message, { trigger, revision: previous });
        return { result: 'unchanged', revision: previous };
      }
      lastAttempt = attempt;
      if (!('sources' in read)) return fail(trigger, [read.problem], read.reason);
      const result = loadSafely(read.sources, clock(), dir);
      if (!result.ok) return fail(trigger, result.problems, 'rejected', attempt);

      const { bundle } = result;
      store.replace(bundle, result.warnings, trigger);
      metrics.reloads.inc({ result: 'success' });
      metrics.policiesLoaded.set(bundle.policies.length);
      if (previous !== undefined && previous !== bundle.revision) metrics.bundleInfo.remove({ revision: previous });
      metrics.bundleInfo.set({ revision: bundle.revision }, 1);
      setSync({ inSync: true, reason: 'in-sync', servedRevision: bundle.revision, checkedAt: clock().toISOString() });
      for (const w of result.warnings) logger.warn('policy warning', { problem: formatProblem(w) });
      logger.info('policy set loaded', { trigger, revision: bundle.revision, previous, policies: bundle.policies.length, files: bundle.files.length });
      return { result: 'success', revision: bundle.revision, previous };
    },
  };
}
