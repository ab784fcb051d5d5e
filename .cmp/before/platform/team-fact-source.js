"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.teamFactSource = teamFactSource;
/**
 * The Platform API's team members as a fact source (Facts.teams): the members of every team a
 * `createdByTeams` scope names, from the directory's cache. Never "unavailable": members that cannot
 * be read are a fact of their own, and only the policies whose scope needs them cannot decide.
 */
function teamFactSource(directory) {
    return {
        name: 'Steadybit Platform API (team members)',
        kinds: ['team-members'],
        async gather(needs) {
            const teams = [...new Set(needs.flatMap((n) => (n.kind === 'team-members' ? [n.team] : [])))];
            return { ok: true, facts: { teams: await directory.resolve(teams) } };
        },
    };
}
//# sourceMappingURL=team-fact-source.js.map