/**
 * The facts the resolver reads on every request, kept in process for a short time (core/cache.ts):
 * the shape of an organization's collection tree, and the grants that reach one member (their own
 * and their teams'). Together with the cached membership (./organization.ts) a caller's role on a
 * space or collection resolves without a query; only the node itself is read.
 *
 * Every write that changes one of these facts calls {@link accessChanged} with the transaction it
 * runs in: grants given or taken, team membership, a team deleted, a collection created, moved,
 * deleted, transferred or given another default level. The tag is the organization's: such writes
 * are rare next to reads, and one tag cannot be forgotten for a subset. A removed member's team
 * memberships go with their membership tag (`membershipChanged`).
 */
import { invalidate, readThrough, TtlCache } from '../core/cache.js';
import { afterCommit, type DbOrTrx } from '../core/service.js';
import { declareOrganizationWrite, organizationScope } from '../db/write-scope.js';
import type { Role } from '../lib/schemas.js';
import { membershipTag } from './organization.js';
import { highest, isRole } from './roles.js';

const ACCESS_TTL_MS = 10_000;

/** What the resolver needs of a collection. */
export interface CollectionShape {
  parent_id: string | null;
  default_level: string;
}

/** Highest role granted on each node (`space:<id>`, `collection:<id>`) to a user or their teams. */
export type GrantMap = ReadonlyMap<string, Role>;

const accessTag = (organizationId: string) => `access:${organizationId}`;
const collectionTrees = new TtlCache<ReadonlyMap<string, CollectionShape>>(ACCESS_TTL_MS, 2_000);
const userGrants = new TtlCache<GrantMap>(ACCESS_TTL_MS);

/**
 * Call with every write that changes grants, team membership or the collection tree of
 * `organizationId`: drops the cached facts now and again once `db`'s transaction has ended.
 */
export function accessChanged(db: DbOrTrx, ...organizationIds: string[]): void {
  const tags = organizationIds.map(accessTag);
  invalidate(...tags);
  afterCommit(db, () => invalidate(...tags));
  // The cached answers of these organizations go when the write commits (src/db/write-scope.ts).
  for (const id of organizationIds) declareOrganizationWrite(id);
}

/** The organization's collections: parent and default level by id. */
export function collectionTree(db: DbOrTrx, organizationId: string): Promise<ReadonlyMap<string, CollectionShape>> {
  const tags = [accessTag(organizationId), organizationScope(organizationId)];
  return readThrough(db, collectionTrees, organizationId, tags, async () => {
    const rows = await db
      .selectFrom('collections')
      .select(['id', 'parent_id', 'default_level'])
      .where('organization_id', '=', organizationId)
      .execute();
    return new Map(rows.map((r) => [r.id, { parent_id: r.parent_id, default_level: r.default_level }]));
  });
}

/** The grants reaching `userId` in `organizationId`, directly or through their teams, in one query. */
export function grantsOfUser(db: DbOrTrx, organizationId: string, userId: string): Promise<GrantMap> {
  const tags = [accessTag(organizationId), membershipTag(organizationId, userId), organizationScope(organizationId)];
  return readThrough(db, userGrants, `${organizationId}:${userId}`, tags, async () => {
    const rows = await db
      .selectFrom('content_permissions')
      .select(['target_type', 'target_id', 'role'])
      .where('organization_id', '=', organizationId)
      .where((eb) =>
        eb.or([
          eb.and([eb('principal_type', '=', 'user'), eb('principal_id', '=', userId)]),
          eb.and([
            eb('principal_type', '=', 'team'),
            eb(
              'principal_id',
              'in',
              eb
                .selectFrom('team_members')
                .innerJoin('teams', 'teams.id', 'team_members.team_id')
                .select('team_members.team_id')
                .where('teams.organization_id', '=', organizationId)
                .where('team_members.user_id', '=', userId),
            ),
          ]),
        ]),
      )
      .execute();
    const grants = new Map<string, Role>();
    for (const row of rows) {
      if (!isRole(row.role)) continue;
      const key = `${row.target_type}:${row.target_id}`;
      grants.set(key, highest([grants.get(key), row.role]) as Role);
    }
    return grants;
  });
}
