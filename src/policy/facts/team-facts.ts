/**
 * The team part of the facts (Facts.teams): the members of the Steadybit teams that `createdByTeams`
 * scopes name, as the Platform API lists them (GET /api/teams/{key}/members), or why they cannot be
 * known. Plain JSON data keyed by the team key as the policy writes it. Absent without the Platform
 * API: a scope that needs members then cannot decide (docs/policies.md#who-started-the-run).
 */
export interface TeamMember {
  /** The Steadybit user id (MemberAO.username). */
  username: string;
  email?: string;
}
export type TeamMembers = { members: TeamMember[] } | { unknown: string };
export type TeamFacts = Record<string, TeamMembers>;

/** The need of a scope that lists `createdByTeams`: one per team. */
export interface TeamMembersNeed {
  kind: 'team-members';
  team: string;
}
