import type { Static } from 'typebox';
import type { Db } from '../../db/database.js';
import type { TeamRow } from '../../db/schema.js';
import { type TeamCounts, teamCounts } from './repo.js';
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
 * Presents a batch of teams; `manages(team)` tells whether the viewer may manage each
 * (org admins manage all, owners their own team).
 */
export async function presentTeams<T extends TeamRow>(
  db: Db,
  teams: T[],
  manages: (team: T) => boolean,
): Promise<Static<typeof Team>[]> {
  const counts = await teamCounts(
    db,
    teams.map((t) => t.id),
  );
  return teams.map((t) => presentTeam(t, counts.get(t.id) ?? { members: 0, spaces: 0 }, manages(t)));
}
