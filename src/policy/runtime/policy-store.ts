import type { PolicyBundle } from '../core/compiled';
import { formatProblem, type LoadProblem } from '../compile/load-error';

/** What started a load: the first load, a file change seen by the watcher, or SIGHUP. */
export type LoadTrigger = 'startup' | 'watch' | 'SIGHUP';

/**
 * The last load attempt, as /readyz shows it (`lastLoad`): when it was made and what made it, also
 * when it found the files unchanged (then `unchanged: true`, and what it found is what the attempt
 * that read those files found: `ok`, `revision`, `rejectedRevision`, `problems`).
 */
export interface ReloadStatus {
  /** When the attempt was made. */
  at: string;
  ok: boolean;
  trigger?: LoadTrigger;
  /** The files were the ones the attempt before read: nothing was loaded again (a stray file added, a touch, a SIGHUP). */
  unchanged?: true;
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

  replace(bundle: PolicyBundle, warnings: LoadProblem[] = [], trigger?: LoadTrigger, at: Date = new Date()): void {
    this.bundle = bundle;
    this.warningsInUse = warnings.map(formatProblem);
    this.status = {
      at: at.toISOString(),
      ok: true,
      trigger,
      revision: bundle.revision,
      problems: this.warningsInUse,
    };
  }

  /** A failed load keeps the bundle in use (if any) and is remembered for readiness. */
  rejected(problems: LoadProblem[], meta: { trigger?: LoadTrigger; rejectedRevision?: string; at?: Date } = {}): void {
    this.status = {
      at: (meta.at ?? new Date()).toISOString(),
      ok: false,
      trigger: meta.trigger,
      revision: this.bundle?.revision,
      rejectedRevision: meta.rejectedRevision,
      problems: problems.map(formatProblem),
    };
  }

  /**
   * An attempt that found the files of the last one (nothing loaded again): /readyz shows when it was
   * made and what made it, with what the last one found (the files not loaded are looked at anew).
   */
  unchanged(trigger: LoadTrigger, at: Date): void {
    if (this.status) this.status = { ...this.status, at: at.toISOString(), trigger, unchanged: true };
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
