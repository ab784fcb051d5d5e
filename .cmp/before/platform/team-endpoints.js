"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.getTeamMembers = getTeamMembers;
const isObject = (v) => typeof v === 'object' && v !== null && !Array.isArray(v);
/**
 * GET /api/teams/{key}/members (getTeamMembers): TeamMembersAO, each MemberAO's username (required)
 * and email (nullable). An unknown team is a 404 (`rejected`), like any refusal: a value, never a throw.
 */
async function getTeamMembers(client, team, deadlineMs) {
    const res = await client.call({
        endpoint: 'team_members',
        method: 'GET',
        path: `/api/teams/${encodeURIComponent(team)}/members`,
        deadlineMs,
    });
    if (!res.ok)
        return res;
    if (!isObject(res.body) || !Array.isArray(res.body.members))
        return {
            ok: false,
            failure: { outcome: 'invalid_response', message: 'the answer is not TeamMembersAO ({"members": [...]})' },
        };
    const members = [];
    for (const m of res.body.members) {
        if (!isObject(m) || typeof m.username !== 'string')
            return {
                ok: false,
                failure: { outcome: 'invalid_response', message: 'a member of TeamMembersAO lacks its username' },
            };
        members.push(typeof m.email === 'string' && m.email !== ''
            ? { username: m.username, email: m.email }
            : { username: m.username });
    }
    return { ok: true, value: members };
}
//# sourceMappingURL=team-endpoints.js.map