import type { Static } from 'typebox';
import type { TeamRow } from '../../db/schema.js';
import type { TeamCounts } from './repo.js';
import type { Team } from './schemas.js';

export function presentTeam(team: TeamRow, counts: TeamCounts, canManage: boolean): Static<typeof Team> {
  return {
    object: 'team',
    id: team.id,
    title: team.title,
    members: counts.members,
    spaces: counts.spaces,
    createdAt: team.created_at,
    permissions: { admin: canManage, view: true },
  };
}

/**
 * Presents a batch of teams with their counts (`teamCounts`, loaded once for the list);
 * `manages(team)` tells whether the viewer may manage each (org admins manage all, owners their own team).
 */
export function presentTeams<T extends TeamRow>(
  teams: T[],
  counts: Map<string, TeamCounts>,
  manages: (team: T) => boolean,
): Static<typeof Team>[] {
  return teams.map((t) => presentTeam(t, counts.get(t.id) ?? { members: 0, spaces: 0 }, manages(t)));
}
