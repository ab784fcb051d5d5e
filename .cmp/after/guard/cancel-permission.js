"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.CancelPermission = exports.runsOfTeam = exports.PERMISSION_UNKNOWN = void 0;
exports.PERMISSION_UNKNOWN = 'unknown until the first cancel: the Steadybit Platform API has no call that tells what a token may do without side effects (no "whoami"; GET /api/access-tokens/v2 lists tokens, not which one is calling), so the first cancel\'s answer tells (docs/guard.md, "The token")';
/** "runs of team ADM", or "runs without a team key" for a payload that names none. */
const runsOfTeam = (team) => team === undefined || team === '' ? 'runs without a team key' : `runs of team ${team}`;
exports.runsOfTeam = runsOfTeam;
/**
 * What the Platform API's cancel answers taught about the token (docs/guard.md, "The token"): a
 * team token may cancel its own team's runs only, so this is kept per team. A cancel refused for
 * permission (401/403) makes the guard unable to stop that team's runs until a cancel of one of them
 * is answered without refusal (202, or 200 for a run already ended); a 404 tells nothing. Nothing
 * is known before the first answer. Per replica, in memory: a restart forgets it.
 */
class CancelPermission {
    refusals = new Map();
    answered = false;
    /** A cancel refused for permission; true when this team's runs could be stopped until now (to say it once). */
    refused(team, executionId, answer, at) {
        const key = team ?? '';
        const fresh = !this.refusals.has(key);
        this.refusals.set(key, { executionId, at: at.toISOString(), answer });
        return fresh;
    }
    /** A cancel answered without refusal; true when it ends a refusal for this team (to say it once). */
    allowed(team) {
        this.answered = true;
        return this.refusals.delete(team ?? '');
    }
    status() {
        if (this.refusals.size > 0) {
            const said = [...this.refusals].map(([team, r]) => `${(0, exports.runsOfTeam)(team)}: the Platform API refused to cancel run ${r.executionId} at ${r.at} (${r.answer})`);
            return {
                canStop: false,
                message: `the token may not cancel ${said.join('; ')}. A team token of the run's team or an admin token may; canStop is true again once a cancel of that team's runs succeeds (docs/guard.md, "The token")`,
                refusedTeams: [...this.refusals.keys()],
            };
        }
        return this.answered ? { canStop: true } : { canStop: 'unknown', message: exports.PERMISSION_UNKNOWN };
    }
}
exports.CancelPermission = CancelPermission;
//# sourceMappingURL=cancel-permission.js.map