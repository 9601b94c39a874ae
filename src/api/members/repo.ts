import { type Expression, expressionBuilder, type Kysely, type SqlBool, sql } from 'kysely';
import type { Static } from 'typebox';
import type { DbOrTrx } from '../../core/service.js';
import { containsInsensitive, dialectOf, toCount } from '../../db/dialect.js';
import { prepare } from '../../db/prepared.js';
import type { Database } from '../../db/schema.js';
import { declareMemberWrite } from '../../db/write-scope.js';
import { keysetPage, type Page, paginate, type SortKey } from '../../lib/paging.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { grantedSpaceCount, grantedSpaceCounts } from '../../permissions/grants.js';
import { cachedMemberCount } from '../../permissions/organization.js';
import { loadViewer, loadViewers, type Viewer } from '../../permissions/resolver.js';
import { type SiteSpaceNode, siteSpaceNodes } from '../../sites/node-cache.js';
import type { ListMembersQuery } from './schemas.js';

/** A member joined with their user. */
export interface MemberRecord {
  user_id: string;
  role: string | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
  email: string;
  display_name: string;
  photo_url: string | null;
}

/** Members of the organization with their users, as {@link MemberRecord}s (filters go after). */
export function membersQuery(db: DbOrTrx, organizationId: string) {
  return db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select([
      'members.user_id',
      'members.role',
      'members.disabled',
      'members.sso',
      'members.joined_at',
      'members.last_seen_at',
      'users.email',
      'users.display_name',
      'users.photo_url',
    ])
    .where('members.organization_id', '=', organizationId);
}

export async function findMember(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
): Promise<MemberRecord | undefined> {
  return membersQuery(db, organizationId).where('members.user_id', '=', userId).executeTakeFirst();
}

/** Members of `organizationId` with the given user ids or e-mail addresses. */
export async function findMembersByKeys(db: DbOrTrx, organizationId: string, keys: string[]): Promise<MemberRecord[]> {
  if (keys.length === 0) return [];
  const emails = keys.map((k) => k.toLowerCase());
  // E-mail addresses to user ids first, then members by primary key: each step uses its index.
  // With `user_id in (…) or email in (…)` in one query, SQLite without statistics (a new
  // database) scans both tables in a nested loop: seconds per call for a few thousand members.
  const byEmail = await db.selectFrom('users').select('id').where('email', 'in', emails).execute();
  const ids = [...new Set([...keys, ...byEmail.map((u) => u.id)])];
  return membersQuery(db, organizationId).where('members.user_id', 'in', ids).execute();
}

/** The number of teams of `organizationId` that `userId` is in, as a subquery (the member's `teams`). */
function teamCount(userId: Expression<string>, organizationId: string) {
  return expressionBuilder<Database, never>()
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select((eb) => eb.fn.countAll<number | string>().as('n'))
    .where('team_members.user_id', '=', userId)
    .where('teams.organization_id', '=', organizationId);
}

/** A listed member: the record with its `teams` and `spaces` counts, selected with the row. */
export interface ListedMember extends MemberRecord {
  team_count: number | string | null;
  space_count: number | string | null;
}

/**
 * A page of members, each with its team and space counts as correlated subqueries: one query for
 * the page (they look up the page's members only), instead of a query per counter with an
 * `in (…)` list of the page's ids.
 */
export async function listMembers(
  db: DbOrTrx,
  organizationId: string,
  query: Static<typeof ListMembersQuery>,
): Promise<Page<ListedMember>> {
  const direction = query.order ?? 'desc';
  const sort = query.sort ?? 'joinedAt';
  let first: SortKey<ListedMember>;
  if (sort === 'lastSeenAt') {
    first = { column: 'members.last_seen_at', direction, value: (r) => r.last_seen_at as string };
  } else if (sort === 'name') {
    first = { column: 'users.display_name', direction, value: (r) => r.display_name };
  } else {
    first = { column: 'members.joined_at', direction, value: (r) => r.joined_at };
  }
  // Without a search the count needs no join with users (every member has one). It grows with the
  // organization (4 ms at 100k members) and every page repeats it, so the counts by role are kept
  // for a while (permissions/organization.ts: dropped by every membership change in this process).
  const countRows = query.search
    ? undefined
    : async () => {
        const count = async () => {
          let c = db.selectFrom('members').where('organization_id', '=', organizationId);
          if (query.role === 'guest') c = c.where('role', 'is', null);
          else if (query.role) c = c.where('role', '=', query.role);
          if (sort === 'lastSeenAt') c = c.where('last_seen_at', 'is not', null);
          const row = await c.select(sql<number>`count(*)`.as('n')).executeTakeFirst();
          return Number(row?.n ?? 0);
        };
        // Last-seen times change on every ping: that count is not kept.
        if (sort === 'lastSeenAt' || db.isTransaction) return count();
        return cachedMemberCount(organizationId, query.role ?? 'all', count);
      };
  const keys = [first, { column: 'members.user_id', direction, value: (r: ListedMember) => r.user_id }];
  // The default list runs precompiled queries: building the query below costs ~10 % of the request.
  if (countRows && !query.role && sort === 'joinedAt' && direction === 'desc') {
    return newestMembers(db, organizationId, query, countRows, keys);
  }
  let q = selectListedMembers(db, organizationId);
  if (query.role === 'guest') q = q.where('members.role', 'is', null);
  else if (query.role) q = q.where('members.role', '=', query.role);
  // Sorting by activity lists only the members who have been seen.
  if (sort === 'lastSeenAt') q = q.where('members.last_seen_at', 'is not', null);
  if (query.search) {
    const search = query.search;
    const trigrams = usersFtsPhrase(db, search);
    q = q.where((eb) => {
      const like = eb.or([
        containsInsensitive(eb.ref('users.display_name'), search),
        containsInsensitive(eb.ref('users.email'), search),
      ]);
      // The trigram index only narrows the candidates; the LIKE above stays the exact filter.
      if (trigrams === undefined) return like;
      return eb.and([
        // As a condition on the member's key, which SQLite then looks up by primary key; on
        // users.rowid it walks every member of the organization and tests each against the list.
        sql<SqlBool>`${sql.ref('members.user_id')} in (select id from users where rowid in
          (select rowid from users_fts where users_fts match ${trigrams}))`,
        like,
      ]);
    });
  }
  return paginate(q, keys, query, countRows);
}

/**
 * On SQLite, the FTS5 query (a quoted phrase) that finds the users whose name or e-mail may contain
 * `search`, through the trigram index of migration 0015; undefined where that index does not apply:
 * on PostgreSQL (its trigram indexes serve the LIKE itself) and for searches shorter than a trigram.
 * The index folds case for every script, SQLite's lower() for ASCII only: it finds a superset of
 * what the LIKE matches, never less.
 */
function usersFtsPhrase(db: DbOrTrx, search: string): string | undefined {
  const pattern = search.toLowerCase();
  if (dialectOf(db as Kysely<Database>) === 'postgres' || [...pattern].length < 3) return undefined;
  return `"${pattern.replaceAll('"', '""')}"`;
}

/** Members with their users and their `teams` and `spaces` counts (correlated subqueries). */
function selectListedMembers(db: DbOrTrx, organizationId: string) {
  return membersQuery(db, organizationId).select((eb) => [
    teamCount(eb.ref('members.user_id'), organizationId).as('team_count'),
    grantedSpaceCount('user', eb.ref('members.user_id'), organizationId).as('space_count'),
  ]);
}

// The default member list (no filter, newest first), precompiled: the same SQL `paginate` makes,
// without building and compiling it per request.
const newestFirst = prepare((db, p: { organizationId: string; limit: number }) =>
  selectListedMembers(db, p.organizationId)
    .orderBy('members.joined_at', 'desc')
    .orderBy('members.user_id', 'desc')
    .limit(p.limit),
);
const newestAfter = prepare((db, p: { organizationId: string; limit: number; joinedAt: string; userId: string }) =>
  selectListedMembers(db, p.organizationId)
    .where(
      sql<SqlBool>`(${sql.ref('members.joined_at')}, ${sql.ref('members.user_id')}) < (${p.joinedAt}, ${p.userId})`,
    )
    .orderBy('members.joined_at', 'desc')
    .orderBy('members.user_id', 'desc')
    .limit(p.limit),
);

function newestMembers(
  db: DbOrTrx,
  organizationId: string,
  options: { page?: string; limit?: number },
  countRows: () => Promise<number>,
  keys: SortKey<ListedMember>[],
): Promise<Page<ListedMember>> {
  return keysetPage(keys, options, {
    first: (limit) => newestFirst.all(db, { organizationId, limit }),
    after: (limit, [joinedAt, userId]) =>
      newestAfter.all(db, { organizationId, limit, joinedAt: joinedAt as string, userId: userId as string }),
    count: countRows,
  });
}

export interface MemberCounts {
  teams: number;
  spaces: number;
  sites: number;
}

/** Per-user counts shown on Member objects, for a whole page of members in a fixed number of queries. */
export async function memberCounts(
  db: DbOrTrx,
  organizationId: string,
  userIds: string[],
): Promise<Map<string, MemberCounts>> {
  const counts = new Map<string, MemberCounts>(userIds.map((id) => [id, { teams: 0, spaces: 0, sites: 0 }]));
  if (userIds.length === 0) return counts;
  const teamRows = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .select(['team_members.user_id', sql<number>`count(*)`.as('n')])
    .where('teams.organization_id', '=', organizationId)
    .where('team_members.user_id', 'in', userIds)
    .groupBy('team_members.user_id')
    .execute();
  for (const row of teamRows) {
    const entry = counts.get(row.user_id);
    if (entry) entry.teams = Number(row.n);
  }
  for (const [userId, n] of await grantedSpaceCounts(db, 'user', userIds, organizationId)) {
    const entry = counts.get(userId);
    if (entry) entry.spaces = n;
  }
  for (const [userId, n] of await siteCounts(db, organizationId, userIds)) {
    const entry = counts.get(userId);
    if (entry) entry.sites = n;
  }
  return counts;
}

/**
 * How many of the organization's sites each user can reach: a site counts when the user has a role
 * granted on the site itself (`inviteToSite`, to them or a team of theirs), or a role on at least one
 * live space it publishes, as resolved for the site's permissions aggregate (so a
 * member's `sites` is the number of site aggregates listing them). A fixed number of queries for
 * any number of users; the roles are resolved in memory.
 */
export async function siteCounts(db: DbOrTrx, organizationId: string, userIds: string[]): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  const nodes = await siteSpaceNodes(db, organizationId);
  for (const [userId, viewer] of await loadViewers(db, organizationId, userIds)) {
    counts.set(userId, sitesReached(nodes, viewer).size);
  }
  return counts;
}

/**
 * The member and their team and space-grant counts, compiled once: building and compiling it with
 * the builder cost ~30 % of an uncached `GET …/members/{userId}`.
 */
const memberWithCounts = prepare((db, p: { organizationId: string; userId: string }) =>
  membersQuery(db, p.organizationId)
    .select((eb) => [
      teamCount(eb.ref('members.user_id'), p.organizationId).as('team_count'),
      grantedSpaceCount('user', eb.ref('members.user_id'), p.organizationId).as('space_count'),
    ])
    .where('members.user_id', '=', p.userId),
);

/**
 * One member with their counts, for single reads: the member, their teams and their direct space
 * grants in one query (subqueries on their indexes), then their sites (the organization's cached
 * site-space nodes, resolved with the member's cached viewer).
 */
export async function findMemberForRead(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
): Promise<(MemberRecord & { counts: MemberCounts }) | undefined> {
  const [found, sites] = await Promise.all([
    memberWithCounts.first(db, { organizationId, userId }),
    siteCountOf(db, organizationId, userId),
  ]);
  if (!found) return undefined;
  const { team_count, space_count, ...record } = found;
  return { ...record, counts: { teams: toCount(team_count), spaces: toCount(space_count), sites } };
}

/** {@link siteCounts} of one user, with their viewer from the resolver's caches. */
async function siteCountOf(db: DbOrTrx, organizationId: string, userId: string): Promise<number> {
  const [nodes, viewer] = await Promise.all([
    siteSpaceNodes(db, organizationId),
    loadViewer(db, organizationId, userId),
  ]);
  return sitesReached(nodes, viewer).size;
}

/** The sites `viewer` reaches: through a live space one publishes, or a grant on the site itself. */
function sitesReached(nodes: readonly SiteSpaceNode[], viewer: Viewer): Set<string> {
  const reached = new Set<string>(viewer.grantedSites());
  for (const node of nodes) {
    if (!reached.has(node.site_id) && viewer.roleOn({ type: 'space', ...node })) reached.add(node.site_id);
  }
  return reached;
}

export async function setMemberRole(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
  role: Role | null,
): Promise<void> {
  declareMemberWrite(organizationId, userId);
  await db
    .updateTable('members')
    .set({ role })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

export async function setMemberSso(db: DbOrTrx, organizationId: string, userId: string): Promise<void> {
  declareMemberWrite(organizationId, userId);
  await db
    .updateTable('members')
    .set({ sso: 1 })
    .where('organization_id', '=', organizationId)
    .where('user_id', '=', userId)
    .execute();
}

/** Removes the member, their memberships of the organization's teams and their grants. */
export async function removeMember(db: DbOrTrx, organizationId: string, userId: string): Promise<void> {
  declareMemberWrite(organizationId, userId);
  await db
    .deleteFrom('team_members')
    .where('user_id', '=', userId)
    .where('team_id', 'in', db.selectFrom('teams').select('id').where('organization_id', '=', organizationId))
    .execute();
  await db.deleteFrom('members').where('organization_id', '=', organizationId).where('user_id', '=', userId).execute();
}

export async function countAdmins(db: DbOrTrx, organizationId: string): Promise<number> {
  const row = await db
    .selectFrom('members')
    .select(sql<number>`count(*)`.as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** Adds the user as a member with `role` unless already a member; true when added. */
export async function addMember(
  db: DbOrTrx,
  organizationId: string,
  userId: string,
  role: Role | null,
  sso = false,
): Promise<boolean> {
  declareMemberWrite(organizationId, userId);
  const result = await db
    .insertInto('members')
    .values({
      organization_id: organizationId,
      user_id: userId,
      role,
      disabled: 0,
      sso: sso ? 1 : 0,
      joined_at: nowIso(),
      last_seen_at: null,
    })
    .onConflict((oc) => oc.columns(['organization_id', 'user_id']).doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}
