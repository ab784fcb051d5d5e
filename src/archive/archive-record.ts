import type { Facts } from '../policy/facts/facts';
import type { Need } from '../policy/facts/need';
import type { ArchivedResult } from './archived-results';

/** The format of the archive's lines; replay refuses (and reports) lines of a format it does not know. */
export const ARCHIVE_FORMAT = 1;

/**
 * Everything outside the payload that a decision read, as it was gathered for it (policy/facts/).
 * `needs` are the needs the policy set declared (PolicyBundle.needs), so replay can tell whether a
 * proposed set needs a fact the archive does not hold.
 */
export interface ArchivedFacts extends Facts {
  needs: Need[];
}

/** The answer Steadybit got: status and body exactly as sent (preflight-answer.ts). */
export interface ArchivedAnswer {
  status: number;
  body: unknown;
}

/** One line of the decision archive: what is needed to decide the run again, and what was decided. */
export interface ArchiveRecord {
  format: typeof ARCHIVE_FORMAT;
  /** The decision id (X-Preflight-Decision-Id). */
  id: string;
  /** The decision time, ISO 8601: what time windows and {{now}} read. */
  at: string;
  /** The revision of the policy set that decided (X-Preflight-Policy-Revision). */
  revision: string;
  /** Built-in policies that were in force (EMERGENCY_STOP_POLICY=enforce), by name. */
  builtIns: string[];
  /** Asked with ?explain=true: every policy visited, and the explanation in the body. */
  explain: boolean;
  /** The payload as received (parsed), masked attribute values replaced by REDACTED (`[masked]` in those written by 0.1.0). */
  payload: unknown;
  /** The attribute keys whose values were masked (DECISION_ARCHIVE_MASK_ATTRIBUTES); absent when none. */
  masked?: string[];
  /** A stop by the guard (docs/guard.md): decided on the guarded part of the set; a denial here is a stop. */
  whileRunning?: true;
  facts: ArchivedFacts;
  answer: ArchivedAnswer;
  /** The per-policy results of the decision (archived-results.ts). */
  results: ArchivedResult[];
}
