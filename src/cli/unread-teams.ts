import { closest } from '../policy/compile/near-name';
import type { Need } from '../policy/facts/need';
import type { TeamFacts } from '../policy/facts/team-facts';

/**
 * The teams a given set of team members lists that no rule of the set reads (createdByTeams, the
 * approvers of owners' exceptions), each with the team it most likely meant: a slip in a hand-made
 * `--teams` file is read by nothing, and the rule that needed the team decides without it.
 */
export function unreadTeams(teams: TeamFacts, needs: readonly Need[]): { team: string; meant?: string }[] {
  const read = new Set(needs.flatMap((n) => (n.kind === 'team-members' ? [n.team] : [])));
  return Object.keys(teams)
    .filter((team) => !read.has(team))
    .map((team) => {
      const meant = closest(
        team,
        [...read].filter((r) => !(r in teams)),
      );
      return meant === undefined ? { team } : { team, meant };
    });
}
