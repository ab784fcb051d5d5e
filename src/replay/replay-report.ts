import type { ArchiveRecord } from '../archive/archive-record';
import { isJsonObject } from '../common/json-object';
import type { UsesDependence } from './uses-dependence';
import { CHANGE_KINDS, type AnswerSummary, type ChangeKind, type PolicyChange } from './compare-answers';

/** A run as reports name it: where to find it in Steadybit and in the archive. */
export interface RunRef {
  decisionId: string;
  at: string;
  executionId?: string;
  experimentKey?: string;
  teamKey?: string;
  environment?: string;
}

export interface ChangedRun extends RunRef {
  kind: ChangeKind;
  before: AnswerSummary;
  after: AnswerSummary;
  policies: PolicyChange[];
}

/** Changed runs per policy whose result changed in them: newly allowed, newly denied, other changes. */
export interface PolicyTally {
  policy: string;
  newlyAllowed: number;
  newlyDenied: number;
  changed: number;
}

export interface Counted<T> {
  message: string;
  count: number;
  examples: T[];
}

/** Runs whose answer turned on an exception's use count (uses-dependence.ts), when the proposed set has maxUses exceptions. */
export interface UsesDependentRuns {
  /** How it is decided (USES_DEPENDENCE_RULE). */
  rule: string;
  count: number;
  runs: Array<RunRef & UsesDependence>;
}

/** An archive file that could not be read to its end: its lines after `line` were not replayed. */
export interface DamagedFile {
  file: string;
  line: number;
  message: string;
}

/** The whole result of a replay, JSON-serialisable (the `--format json` output). */
export interface ReplayReport {
  archive: string;
  policyDir: string;
  /** The revision of the proposed policy set. */
  revision: string;
  since?: string;
  until?: string;
  counts: {
    /** Archive records read (in the time range or not). */
    records: number;
    outOfRange: number;
    replayed: number;
    unchanged: number;
    changed: Record<ChangeKind, number>;
    notReplayable: number;
    /** Lines that are not records of a known format (and files that could not be read). */
    problems: number;
    /** Runs whose recorded revision is the proposed one and whose answer still differs. */
    irreproducible: number;
    /** Archive files that could not be read to their end (a gzip file cut short or corrupt): the replay is incomplete. */
    damagedFiles: number;
  };
  /** How many replayed runs each recorded revision decided. */
  recordedRevisions: Record<string, number>;
  byPolicy: PolicyTally[];
  /** The changed runs, per kind, in archive time order; at most `listed` each (counts are complete). */
  changes: Record<ChangeKind, ChangedRun[]>;
  listed: number;
  notReplayable: Array<Counted<RunRef>>;
  problems: Array<Counted<string>>;
  /** Each file that could not be read to its end: the last whole line read (0: none) and why. */
  damagedFiles: DamagedFile[];
  irreproducible: ChangedRun[];
  /** Present when the proposed set has exceptions with maxUses. */
  dependsOnUses?: UsesDependentRuns;
}

const text = (v: unknown) => (typeof v === 'string' || typeof v === 'number' ? String(v) : undefined);

export function runRef(record: ArchiveRecord): RunRef {
  const execution =
    isJsonObject(record.payload) && isJsonObject(record.payload.execution) ? record.payload.execution : {};
  const ref: RunRef = { decisionId: record.id, at: record.at };
  const fields = {
    executionId: text(execution.id),
    experimentKey: text(execution.experimentKey),
    teamKey: text(execution.teamKey),
    environment: text(execution.environment),
  };
  for (const [k, v] of Object.entries(fields)) if (v !== undefined) ref[k as keyof typeof fields] = v;
  return ref;
}

/** Caps the distinct messages too: a broken archive must not grow the report without bound. */
const MAX_MESSAGES = 100;
const OTHERS = '(other messages, not listed one by one)';

function countInto<T>(list: Array<Counted<T>>, message: string, example: T, listed: number): void {
  let entry =
    list.find((e) => e.message === message) ??
    (list.length >= MAX_MESSAGES ? list.find((e) => e.message === OTHERS) : undefined);
  if (!entry) list.push((entry = { message: list.length >= MAX_MESSAGES ? OTHERS : message, count: 0, examples: [] }));
  entry.count++;
  if (entry.examples.length < listed) entry.examples.push(example);
}

/** Builds a ReplayReport run by run; holds counts and at most `listed` runs per list (flat memory). */
export class ReplayTally {
  readonly report: ReplayReport;
  private readonly policies = new Map<string, PolicyTally>();

  constructor(head: Pick<ReplayReport, 'archive' | 'policyDir' | 'revision' | 'since' | 'until' | 'listed'>) {
    const changed = Object.fromEntries(CHANGE_KINDS.map((k) => [k, 0])) as Record<ChangeKind, number>;
    const changes = Object.fromEntries(CHANGE_KINDS.map((k) => [k, []])) as unknown as Record<ChangeKind, ChangedRun[]>;
    this.report = {
      ...head,
      counts: {
        records: 0,
        outOfRange: 0,
        replayed: 0,
        unchanged: 0,
        changed,
        notReplayable: 0,
        problems: 0,
        irreproducible: 0,
        damagedFiles: 0,
      },
      recordedRevisions: {},
      byPolicy: [],
      changes,
      notReplayable: [],
      problems: [],
      damagedFiles: [],
      irreproducible: [],
    };
  }

  problem(where: string, message: string): void {
    this.report.counts.problems++;
    countInto(this.report.problems, message, where, this.report.listed);
  }

  /** One per file (a file ends once): every one is kept. */
  damaged(file: DamagedFile): void {
    this.report.counts.damagedFiles++;
    this.report.damagedFiles.push(file);
  }

  /** A run replayed, decided by `revision` then. */
  replayed(revision: string): void {
    this.report.counts.replayed++;
    this.report.recordedRevisions[revision] = (this.report.recordedRevisions[revision] ?? 0) + 1;
  }

  notReplayable(run: RunRef, reason: string): void {
    this.report.counts.notReplayable++;
    countInto(this.report.notReplayable, reason, run, this.report.listed);
  }

  changed(run: ChangedRun, sameRevision: boolean): void {
    this.report.counts.changed[run.kind]++;
    const list = this.report.changes[run.kind];
    if (list.length < this.report.listed) list.push(run);
    if (sameRevision) {
      this.report.counts.irreproducible++;
      if (this.report.irreproducible.length < this.report.listed) this.report.irreproducible.push(run);
    }
    for (const change of run.policies) {
      let tally = this.policies.get(change.policy);
      if (!tally)
        this.policies.set(
          change.policy,
          (tally = { policy: change.policy, newlyAllowed: 0, newlyDenied: 0, changed: 0 }),
        );
      if (run.kind === 'newly-allowed') tally.newlyAllowed++;
      else if (run.kind === 'newly-denied') tally.newlyDenied++;
      else tally.changed++;
    }
  }

  /** A replayed run whose answer turned on a use count. */
  dependsOnUses(run: RunRef & UsesDependence): void {
    const list = this.report.dependsOnUses;
    if (!list) return;
    list.count++;
    if (list.runs.length < this.report.listed) list.runs.push(run);
  }

  /** The finished report: policies with the most newly allowed runs first, then newly denied. */
  finish(): ReplayReport {
    this.report.byPolicy = [...this.policies.values()].sort(
      (a, b) =>
        b.newlyAllowed - a.newlyAllowed ||
        b.newlyDenied - a.newlyDenied ||
        b.changed - a.changed ||
        a.policy.localeCompare(b.policy),
    );
    return this.report;
  }
}
