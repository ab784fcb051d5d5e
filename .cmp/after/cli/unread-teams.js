"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.unreadTeams = unreadTeams;
const near_name_1 = require("../policy/compile/near-name");
/**
 * The teams a given set of team members lists that no rule of the set reads (createdByTeams, the
 * approvers of owners' exceptions), each with the team it most likely meant: a slip in a hand-made
 * `--teams` file is read by nothing, and the rule that needed the team decides without it.
 */
function unreadTeams(teams, needs) {
    const read = new Set(needs.flatMap((n) => (n.kind === 'team-members' ? [n.team] : [])));
    return Object.keys(teams)
        .filter((team) => !read.has(team))
        .map((team) => {
        const meant = (0, near_name_1.closest)(team, [...read].filter((r) => !(r in teams)));
        return meant === undefined ? { team } : { team, meant };
    });
}
//# sourceMappingURL=unread-teams.js.map