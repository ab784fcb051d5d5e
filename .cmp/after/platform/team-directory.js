"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.TeamDirectory = void 0;
const team_endpoints_1 = require("./team-endpoints");
/** Read-time budget of one read: longer than a preflight waits, so a slow answer still fills the cache. */
const READ_DEADLINE_MS = 30_000;
/**
 * The members of the Steadybit teams policies name in `createdByTeams` (GET /api/teams/{key}/members),
 * cached per team like the environment names (environment-directory.ts): read when first needed and
 * again when older than `refreshMs`, one read per team in flight, a preflight waiting at most
 * `waitMs`; a list older than `maxAgeMs`, or never read, is unknown and says why.
 */
class TeamDirectory {
    client;
    timing;
    now;
    teams = new Map();
    constructor(client, timing, now = Date.now) {
        this.client = client;
        this.timing = timing;
        this.now = now;
    }
    /** Reads the team's members now, or joins the read in flight. */
    refresh(team) {
        const entry = this.entry(team);
        if (entry.inFlight)
            return entry.inFlight;
        entry.lastStartMs = this.now();
        const run = async () => {
            const res = await (0, team_endpoints_1.getTeamMembers)(this.client, team, this.now() + READ_DEADLINE_MS);
            if (res.ok) {
                entry.members = res.value;
                entry.fetchedAtMs = this.now();
                entry.lastError = undefined;
            }
            else {
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
    async resolve(teams) {
        const waits = [];
        for (const team of teams) {
            const entry = this.entry(team);
            const age = entry.fetchedAtMs === undefined ? Infinity : this.now() - entry.fetchedAtMs;
            if (age <= this.timing.refreshMs)
                continue;
            const mayStart = entry.inFlight !== undefined || this.now() - entry.lastStartMs >= this.timing.minGapMs;
            if (!mayStart)
                continue;
            const read = this.refresh(team);
            if (age > this.timing.maxAgeMs)
                waits.push(read);
        }
        if (waits.length > 0) {
            let timer;
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
    entry(team) {
        let entry = this.teams.get(team);
        if (!entry)
            this.teams.set(team, (entry = { lastStartMs: -Infinity }));
        return entry;
    }
    membersOf(team) {
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
    status() {
        return [...this.teams].map(([team, e]) => ({
            team,
            ...(e.members ? { members: e.members.length } : {}),
            ...(e.fetchedAtMs === undefined ? {} : { ageSeconds: Math.round((this.now() - e.fetchedAtMs) / 1000) }),
            ...(e.lastError ? { lastError: e.lastError } : {}),
        }));
    }
}
exports.TeamDirectory = TeamDirectory;
//# sourceMappingURL=team-directory.js.map