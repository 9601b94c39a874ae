import { type SqlBool, sql } from 'kysely';
import type { DbOrTrx } from '../../core/service.js';
import { containsInsensitive, toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { TeamRow } from '../../db/schema.js';
import { newId } from '../../lib/ids.js';
import { keysetPage, type Page, paginate, type SortKey } from '../../lib/paging.js';
import type { TeamRole } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { grantedSpaceCount, grantedSpaceCounts } from '../../permissions/grants.js';

export async function findTeam(db: DbOrTrx, organizationId: string, teamId: string): Promise<TeamRow | undefined> {
  return db
    .selectFrom('teams')
    .selectAll()
    .where('id', '=', teamId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/** A listed team: its row, the counters a Team object shows, and whether the viewer owns it. */
export interface ListedTeam extends TeamRow {
  member_count: number | string | null;
  space_count: number | string | null;
  viewer_owns: unknown;
}

/**
 * Teams sorted by title (then id) with their counters and whether `viewerId` owns each, selected
 * with the rows (correlated subqueries over the page only: one query, whatever the organization
 * holds); `managedBy` keeps the teams that user owns.
 */
export async function listTeams(
  db: DbOrTrx,
  organizationId: string,
  viewerId: string,
  filters: { title?: string; managedBy?: string; page?: string; limit?: number },
): Promise<Page<ListedTeam>> {
  if (!filters.title && !filters.managedBy) return listAllTeams(db, organizationId, viewerId, filters);
  let q = selectTeams(db, organizationId, viewerId);
  if (filters.title) {
    const title = filters.title;
    q = q.where((eb) => containsInsensitive(eb.ref('teams.title'), title));
  }
  if (filters.managedBy) {
    const owner = filters.managedBy;
    q = q.where((eb) =>
      eb.exists(
        eb
          .selectFrom('team_members')
          .select('team_members.team_id')
          .whereRef('team_members.team_id', '=', 'teams.id')
          .where('team_members.user_id', '=', owner)
          .where('team_members.role', '=', 'owner'),
      ),
    );
  }
  return paginate(q, TEAM_ORDER, filters);
}

const TEAM_ORDER: SortKey<ListedTeam>[] = [
  { column: 'teams.title', direction: 'asc', value: (r) => r.title },
  { column: 'teams.id', direction: 'asc', value: (r) => r.id },
];

/** Teams of the organization with their counters and whether `viewerId` owns each (filters go after). */
function selectTeams(db: DbOrTrx, organizationId: string, viewerId: string) {
  return db
    .selectFrom('teams')
    .selectAll('teams')
    .select((eb) => [
      eb
        .selectFrom('team_members')
        .select(eb.fn.countAll<number | string>().as('n'))
        .whereRef('team_members.team_id', '=', 'teams.id')
        .as('member_count'),
      grantedSpaceCount('team', eb.ref('teams.id')).as('space_count'),
      eb
        .exists(
          eb
            .selectFrom('team_members')
            .select('team_members.team_id')
            .whereRef('team_members.team_id', '=', 'teams.id')
            .where('team_members.user_id', '=', viewerId)
            .where('team_members.role', '=', 'owner'),
        )
        .as('viewer_owns'),
    ])
    .where('teams.organization_id', '=', organizationId);
}

// The unfiltered list (what clients ask for nearly always), precompiled: building and compiling
// these queries cost about as much CPU as running them. Same SQL as `paginate` makes of them.
const allTeamsFirst = prepare((db, p: { organizationId: string; viewerId: string; limit: number }) =>
  selectTeams(db, p.organizationId, p.viewerId).orderBy('teams.title', 'asc').orderBy('teams.id', 'asc').limit(p.limit),
);
const allTeamsAfter = prepare(
  (db, p: { organizationId: string; viewerId: string; limit: number; title: string; id: string }) =>
    selectTeams(db, p.organizationId, p.viewerId)
      .where(sql<SqlBool>`(${sql.ref('teams.title')}, ${sql.ref('teams.id')}) > (${p.title}, ${p.id})`)
      .orderBy('teams.title', 'asc')
      .orderBy('teams.id', 'asc')
      .limit(p.limit),
);
const teamCount = prepare((db, p: { organizationId: string }) =>
  db
    .selectFrom('teams')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .where('organization_id', '=', p.organizationId),
);

function listAllTeams(
  db: DbOrTrx,
  organizationId: string,
  viewerId: string,
  options: { page?: string; limit?: number },
): Promise<Page<ListedTeam>> {
  return keysetPage(TEAM_ORDER, options, {
    first: (limit) => allTeamsFirst.all(db, { organizationId, viewerId, limit }),
    after: (limit, [title, id]) =>
      allTeamsAfter.all(db, { organizationId, viewerId, limit, title: title as string, id: id as string }),
    count: async () => toCount((await teamCount.first(db, { organizationId }))?.count),
  });
}

/** The teams a user belongs to in an organization, with their team role. */
export async function listTeamsOfUser(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
  filters: { title?: string; page?: string; limit?: number },
): Promise<Page<TeamRow & { member_role: string }>> {
  let q = db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .selectAll('teams')
    .select('team_members.role as member_role')
    .where('teams.organization_id', '=', organizationId)
    .where('team_members.user_id', '=', userId);
  if (filters.title) {
    const title = filters.title;
    q = q.where((eb) => containsInsensitive(eb.ref('teams.title'), title));
  }
  return paginate(
    q,
    [
      { column: 'teams.title', direction: 'asc', value: (r) => r.title },
      { column: 'teams.id', direction: 'asc', value: (r) => r.id },
    ],
    filters,
  );
}

export interface TeamCounts {
  members: number;
  spaces: number;
}

/** Member and space counts of a batch of teams. */
export async function teamCounts(db: DbOrTrx, teamIds: string[]): Promise<Map<string, TeamCounts>> {
  const counts = new Map<string, TeamCounts>(teamIds.map((id) => [id, { members: 0, spaces: 0 }]));
  if (teamIds.length === 0) return counts;
  const rows = await db
    .selectFrom('team_members')
    .select(['team_id', sql<number>`count(*)`.as('n')])
    .where('team_id', 'in', teamIds)
    .groupBy('team_id')
    .execute();
  for (const row of rows) {
    const entry = counts.get(row.team_id);
    if (entry) entry.members = Number(row.n);
  }
  for (const [teamId, n] of await grantedSpaceCounts(db, 'team', teamIds)) {
    const entry = counts.get(teamId);
    if (entry) entry.spaces = n;
  }
  return counts;
}

export async function createTeam(
  db: DbOrTrx,
  organizationId: string,
  title: string,
  memberIds: string[],
): Promise<TeamRow> {
  const now = nowIso();
  const team: TeamRow = { id: newId(), organization_id: organizationId, title, created_at: now };
  await db.insertInto('teams').values(team).execute();
  if (memberIds.length > 0) {
    await db
      .insertInto('team_members')
      .values(
        [...new Set(memberIds)].map((user_id) => ({ team_id: team.id, user_id, role: 'member', created_at: now })),
      )
      .execute();
  }
  return team;
}

export async function renameTeam(db: DbOrTrx, teamId: string, title: string): Promise<void> {
  await db.updateTable('teams').set({ title }).where('id', '=', teamId).execute();
}

export async function deleteTeam(db: DbOrTrx, teamId: string): Promise<void> {
  await db
    .deleteFrom('content_permissions')
    .where('principal_type', '=', 'team')
    .where('principal_id', '=', teamId)
    .execute();
  await db.deleteFrom('team_members').where('team_id', '=', teamId).execute();
  await db.deleteFrom('teams').where('id', '=', teamId).execute();
}

/** Membership rows of a team, paged by when they joined (then user id). */
export async function listTeamMemberships(db: DbOrTrx, teamId: string, paging: { page?: string; limit?: number }) {
  const q = db
    .selectFrom('team_members')
    .select(['team_members.user_id', 'team_members.role', 'team_members.created_at'])
    .where('team_members.team_id', '=', teamId);
  return paginate(
    q,
    [
      { column: 'team_members.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'team_members.user_id', direction: 'asc', value: (r) => r.user_id },
    ],
    paging,
  );
}

export async function findTeamMembership(db: DbOrTrx, teamId: string, userId: string) {
  return db
    .selectFrom('team_members')
    .selectAll()
    .where('team_id', '=', teamId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
}

/** Applies a set of changes to a team's membership (the caller's transaction). */
export async function applyTeamMembership(
  db: DbOrTrx,
  teamId: string,
  changes: { upsert: Map<string, TeamRole | undefined>; remove: Set<string> },
): Promise<void> {
  const now = nowIso();
  for (const [userId, role] of changes.upsert) {
    const insert = db
      .insertInto('team_members')
      .values({ team_id: teamId, user_id: userId, role: role ?? 'member', created_at: now });
    await (role
      ? insert.onConflict((oc) => oc.columns(['team_id', 'user_id']).doUpdateSet({ role }))
      : insert.onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing())
    ).execute();
  }
  if (changes.remove.size > 0) {
    await db
      .deleteFrom('team_members')
      .where('team_id', '=', teamId)
      .where('user_id', 'in', [...changes.remove])
      .execute();
  }
}

/** Which of `teamIds` the user owns. */
export async function ownedTeamIds(db: DbOrTrx, userId: string, teamIds: string[]): Promise<Set<string>> {
  if (teamIds.length === 0) return new Set();
  const rows = await db
    .selectFrom('team_members')
    .select('team_id')
    .where('user_id', '=', userId)
    .where('role', '=', 'owner')
    .where('team_id', 'in', teamIds)
    .execute();
  return new Set(rows.map((r) => r.team_id));
}

export async function findTeamsByIds(db: DbOrTrx, ids: string[]): Promise<TeamRow[]> {
  if (ids.length === 0) return [];
  return db.selectFrom('teams').selectAll().where('id', 'in', ids).execute();
}
