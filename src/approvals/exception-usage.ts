import type { CompiledException } from '../policy/core/compiled';

/** One decided run as the report reads it: when, whether it was allowed, which exceptions waived a policy of it. */
export interface WaiverSighting {
  at: string;
  allowed: boolean;
  exceptions: readonly string[];
}

/** What the report says of one exception of the policy set. */
export interface ExceptionUsage {
  name: string;
  policy: string;
  owner: string;
  reason: string;
  expires: string;
  expired: boolean;
  maxUses?: number;
  /** Allowed runs it waived: what maxUses counts (a use is taken only when the run is allowed). */
  uses: number;
  /** Denied runs in which it waived a policy while another policy denied (no use taken). */
  inDeniedRuns: number;
  /** The last allowed run it waived, ISO time. */
  lastUsed?: string;
  /** No allowed run waived in the last `unusedDays` days of the report (nor ever, when lastUsed is absent): still needed? */
  unused: boolean;
}

export interface ExceptionUsageReport {
  now: string;
  unusedDays: number;
  /** The decisions read, and the time they span: "never used" means "not in these". */
  decisionsRead: number;
  firstDecision?: string;
  lastDecision?: string;
  exceptions: ExceptionUsage[];
  /** Exceptions named by decisions that the policy set no longer holds (removed, renamed), with their uses. */
  notInSet: Array<{ name: string; uses: number; lastUsed?: string }>;
}

interface Tally {
  uses: number;
  inDenied: number;
  lastUsed?: string;
}

/** The decisions read, whether or not an exception waived anything in them (the report's span). */
export interface DecisionsRead {
  count: number;
  first?: string;
  last?: string;
}

/** Adds one decision's time to what was read. */
export function readDecision(read: DecisionsRead, at: string): void {
  read.count++;
  if (read.first === undefined || at < read.first) read.first = at;
  if (read.last === undefined || at > read.last) read.last = at;
}

/**
 * Each exception of the set with how often and when last it waived an allowed run in the sightings,
 * whether it has expired at `now`, and whether nobody used it in the last `unusedDays` days.
 * Sightings (the decisions that name an exception) may come in any order; times are ISO and
 * compare as text; `read` is every decision read.
 */
export function exceptionUsage(
  exceptions: readonly CompiledException[],
  sightings: Iterable<WaiverSighting>,
  read: DecisionsRead,
  now: Date,
  unusedDays: number,
): ExceptionUsageReport {
  const tallies = new Map<string, Tally>();
  for (const s of sightings) {
    for (const name of new Set(s.exceptions)) {
      let t = tallies.get(name);
      if (!t) tallies.set(name, (t = { uses: 0, inDenied: 0 }));
      if (!s.allowed) t.inDenied++;
      else {
        t.uses++;
        if (t.lastUsed === undefined || s.at > t.lastUsed) t.lastUsed = s.at;
      }
    }
  }
  const since = new Date(now.getTime() - unusedDays * 86_400_000).toISOString();
  const inSet = new Set(exceptions.map((e) => e.name));
  return {
    now: now.toISOString(),
    unusedDays,
    decisionsRead: read.count,
    ...(read.first ? { firstDecision: read.first, lastDecision: read.last } : {}),
    exceptions: exceptions.map((e) => {
      const t = tallies.get(e.name) ?? { uses: 0, inDenied: 0 };
      return {
        name: e.name,
        policy: e.policy,
        owner: e.owner,
        reason: e.reason,
        expires: e.expires.toISOString(),
        expired: e.expires <= now,
        ...(e.maxUses === undefined ? {} : { maxUses: e.maxUses }),
        uses: t.uses,
        inDeniedRuns: t.inDenied,
        ...(t.lastUsed ? { lastUsed: t.lastUsed } : {}),
        unused: t.lastUsed === undefined || t.lastUsed < since,
      };
    }),
    notInSet: [...tallies]
      .filter(([name]) => !inSet.has(name))
      .map(([name, t]) => ({ name, uses: t.uses, ...(t.lastUsed ? { lastUsed: t.lastUsed } : {}) }))
      .sort((a, b) => a.name.localeCompare(b.name)),
  };
}
