/**
 * A run as the mint command reads it from wherever its decision was written down (the decision
 * archive, the audit log, or a payload decided on the spot): what an exception for it is scoped to
 * and which policies denied it.
 */
export interface DeniedRun {
  /** Where the decision was read, e.g. `archive /var/lib/pg/archive.jsonl:12`. */
  origin: string;
  decisionId: string;
  /** The decision time, ISO 8601. */
  at: string;
  /** The policy revision that decided, when written down. */
  revision?: string;
  /** The message Steadybit showed. */
  message: string;
  allowed: boolean;
  experimentKey?: string;
  /** The environments the run touches as sent: execution.environment and the override. */
  environments: string[];
  /** execution.experimentVersion as text; undefined when the source does not hold it (the audit log). */
  experimentVersion?: string;
  /** Who started the run (execution.createdBy), when known. */
  createdBy?: { username?: string; email?: string };
  /** The policies whose result was `deny`, in decision order. */
  denied: string[];
}

type Loose = Record<string, unknown>;
const object = (v: unknown): Loose => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Loose) : {});
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);

/** The scope of a run read leniently from an execution object (a recorded payload, or one just validated). */
export function runScopeOf(
  executionValue: unknown,
): Pick<DeniedRun, 'experimentKey' | 'environments' | 'experimentVersion' | 'createdBy'> {
  const execution = object(executionValue);
  const environments = [text(execution.environment), text(object(execution.overrides).environment)].filter(
    (e): e is string => e !== undefined,
  );
  const version = execution.experimentVersion;
  const by = object(execution.createdBy);
  const createdBy =
    text(by.username) !== undefined || text(by.email) !== undefined
      ? { username: text(by.username), email: text(by.email) }
      : undefined;
  return {
    experimentKey: text(execution.experimentKey),
    environments: [...new Set(environments)],
    experimentVersion:
      typeof version === 'number' || (typeof version === 'string' && version !== '') ? String(version) : undefined,
    createdBy,
  };
}
