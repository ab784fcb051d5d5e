import type { TeamFacts, TeamMember, TeamMembers } from '../policy/facts/team-facts';
import type { PlatformClient } from './platform-client';
import type { Read } from './platform-endpoints';
import { getTeamMembers } from './team-endpoints';

export interface TeamDirectoryTiming {
  /** Members read longer ago are read again, the cached list answering meanwhile (STEADYBIT_ENVIRONMENTS_REFRESH_SECONDS). */
  refreshMs: number;
  /** A cached list is used up to this age (STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS). */
  maxAgeMs: number;
  /** The longest a preflight waits for a read (STEADYBIT_PREFLIGHT_WAIT_MS). */
  waitMs: number;
  /** Reads of one team are at least this far apart while it fails (a burst of runs: one call). */
  minGapMs: number;
}

interface Entry {
  members?: TeamMember[];
  fetchedAtMs?: number;
  lastError?: string;
  inFlight?: Promise<Read<TeamMember[]>>;
  lastStartMs: number;
}

/** Read-time budget of one read: longer than a preflight waits, so a slow answer still fills the cache. */
const READ_DEADLINE_MS = 30_000;

/**
 * The members of the Steadybit teams policies name in `createdByTeams` (GET /api/teams/{key}/members),
 * cached per team like the environment names (environment-directory.ts): read when first needed and
 * again when older than `refreshMs`, one read per team in flight, a preflight waiting at most
 * `waitMs`; a list older than `maxAgeMs`, or never read, is unknown and says why.
 */
export class TeamDirectory {
  private readonly teams = new Map<string, Entry>();

  constructor(
    private readonly client: PlatformClient,
    private readonly timing: TeamDirectoryTiming,
    private readonly now: () => number = Date.now,
  ) {}

  /** Reads the team's members now, or joins the read in flight. */
  refresh(team: string): Promise<Read<TeamMember[]>> {
    const entry = this.entry(team);
    if (entry.inFlight) return entry.inFlight;
    entry.lastStartMs = this.now();
    const run = async (): Promise<Read<TeamMember[]>> => {
      const res = await getTeamMembers(this.client, team, this.now() + READ_DEADLINE_MS);
      if (res.ok) {
        entry.members = res.value;
        entry.fetchedAtMs = this.now();
        entry.lastError = undefined;
      } else {
        entry.lastError = res.failure.message;
      }
      return res;
    };
    entry.inFlight = run().finally(() => {
      entry.inFlight = undefined;
    });
    return entry.inFlight;
  }

  /** The members of each team, as the facts hold them: read (or waited for, at most waitMs) when missing or too old. */
  async resolve(teams: readonly string[]): Promise<TeamFacts> {
    const waits: Array<Promise<unknown>> = [];
    for (const team of teams) {
      const entry = this.entry(team);
      const age = entry.fetchedAtMs === undefined ? Infinity : this.now() - entry.fetchedAtMs;
      if (age <= this.timing.refreshMs) continue;
      const mayStart = entry.inFlight !== undefined || this.now() - entry.lastStartMs >= this.timing.minGapMs;
      if (!mayStart) continue;
      const read = this.refresh(team);
      if (age > this.timing.maxAgeMs) waits.push(read);
    }
    if (waits.length > 0) {
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.all(waits),
        new Promise((r) => {
          timer = setTimeout(r, this.timing.waitMs);
          timer.unref();
        }),
      ]);
      clearTimeout(timer);
    }
    return Object.fromEntries(teams.map((team) => [team, this.membersOf(team)]));
  }

  private entry(team: string): Entry {
    let entry = this.teams.get(team);
    if (!entry) this.teams.set(team, (entry = { lastStartMs: -Infinity }));
    return entry;
  }

  private membersOf(team: string): TeamMembers {
    const entry = this.entry(team);
    const failed = entry.lastError ? `; last error: ${entry.lastError}` : '';
    if (entry.fetchedAtMs === undefined || entry.members === undefined)
      return {
        unknown: `the members of Steadybit team ${team} could not be read from the Steadybit Platform API (${entry.lastError ?? 'no answer so far'})`,
      };
    const ageMs = this.now() - entry.fetchedAtMs;
    if (ageMs > this.timing.maxAgeMs)
      return {
        unknown: `the members of Steadybit team ${team} were last read ${Math.round(ageMs / 1000)} s ago, longer than STEADYBIT_ENVIRONMENT_NAME_MAX_AGE_SECONDS (${this.timing.maxAgeMs / 1000} s)${failed}`,
      };
    return { members: entry.members };
  }

  /** Teams cached, with their member count and age (doctor, tests). */
  status(): Array<{ team: string; members?: number; ageSeconds?: number; lastError?: string }> {
    return [...this.teams].map(([team, e]) => ({
      team,
      ...(e.members ? { members: e.members.length } : {}),
      ...(e.fetchedAtMs === undefined ? {} : { ageSeconds: Math.round((this.now() - e.fetchedAtMs) / 1000) }),
      ...(e.lastError ? { lastError: e.lastError } : {}),
    }));
  }
}
