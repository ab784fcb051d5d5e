import type { PolicyBundle } from './compiled';
import { formatProblem, type LoadProblem } from './load-error';

export interface ReloadStatus {
  at: string;
  ok: boolean;
  revision?: string;
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

  constructor(initial?: PolicyBundle) {
    this.bundle = initial;
  }

  current(): PolicyBundle | undefined {
    return this.bundle;
  }

  replace(bundle: PolicyBundle, warnings: LoadProblem[] = []): void {
    this.bundle = bundle;
    this.warningsInUse = warnings.map(formatProblem);
    this.status = { at: new Date().toISOString(), ok: true, revision: bundle.revision, problems: this.warningsInUse };
  }

  /** A failed load keeps the bundle in use (if any) and is remembered for readiness. */
  rejected(problems: LoadProblem[]): void {
    this.status = { at: new Date().toISOString(), ok: false, problems: problems.map(formatProblem) };
  }

  lastLoad(): ReloadStatus | undefined {
    return this.status;
  }

  warnings(): string[] {
    return this.warningsInUse;
  }
}
