import type { PolicyBundle } from '../core/compiled';
import { formatProblem, type LoadProblem } from '../loading/load-error';

/** What started a load: the first load, a file change seen by the watcher, or SIGHUP. */
export type LoadTrigger = 'startup' | 'watch' | 'SIGHUP';

/** The last load attempt, as /readyz shows it. */
export interface ReloadStatus {
  at: string;
  ok: boolean;
  trigger?: LoadTrigger;
  /** The revision now in use (after a failure: the one that kept serving, if any). */
  revision?: string;
  /** Content hash of the rejected files (failures only). */
  rejectedRevision?: string;
  problems: string[];
}

/**
 * Holds the bundle in use. A bundle is immutable; replacing it is one reference swap, so a request
 * that took a bundle finishes on it, and no request ever sees a half-loaded set.
 */
export class PolicyStore {
  private bundle: PolicyBundle | undefined;
  private status: ReloadStatus | undefined;
  private warningsInUse: string[] = [];
  /** The files of the policy directory not loaded, as of the last look (filesNotLoaded). */
  private notLoaded: string[] = [];

  constructor(initial?: PolicyBundle) {
    this.bundle = initial;
  }

  current(): PolicyBundle | undefined {
    return this.bundle;
  }

  replace(bundle: PolicyBundle, warnings: LoadProblem[] = [], trigger?: LoadTrigger): void {
    this.bundle = bundle;
    this.warningsInUse = warnings.map(formatProblem);
    this.status = {
      at: new Date().toISOString(),
      ok: true,
      trigger,
      revision: bundle.revision,
      problems: this.warningsInUse,
    };
  }

  /** A failed load keeps the bundle in use (if any) and is remembered for readiness. */
  rejected(problems: LoadProblem[], meta: { trigger?: LoadTrigger; rejectedRevision?: string } = {}): void {
    this.status = {
      at: new Date().toISOString(),
      ok: false,
      trigger: meta.trigger,
      revision: this.bundle?.revision,
      rejectedRevision: meta.rejectedRevision,
      problems: problems.map(formatProblem),
    };
  }

  /**
   * The files of the policy directory the loader does not read (`x.yaml.bak`), one warning each, as
   * of the last look: every reload attempt looks, whether a set loaded, was rejected or did not change.
   */
  filesNotLoaded(problems: readonly LoadProblem[]): void {
    this.notLoaded = problems.map(formatProblem);
  }

  /** The last load attempt, its problems followed by the files not loaded as they are now. */
  lastLoad(): ReloadStatus | undefined {
    return this.status && { ...this.status, problems: [...this.status.problems, ...this.notLoaded] };
  }

  warnings(): string[] {
    return this.warningsInUse;
  }
}
