/** Grants of roles to users and teams on spaces and collections (`content_permissions`). */

import { sql } from 'kysely';
import { paginate } from '../../core/paging.js';
import type { Role } from '../../core/schemas.js';
import { nowIso } from '../../core/time.js';
import type { Db } from '../../db/database.js';
import type { NodeType } from '../../permissions/resolver.js';

export interface Target {
  type: NodeType;
  id: string;
  organizationId: string;
}
export type PrincipalType = 'user' | 'team';

/** Sets (role) or removes (null) the grant of each principal on the target, in one transaction. */
export async function setGrants(
  db: Db,
  target: Target,
  principalType: PrincipalType,
  ids: string[],
  role: Role | null,
) {
  await db.transaction().execute(async (trx) => {
    for (const id of new Set(ids)) {
      if (role === null) {
        await trx
          .deleteFrom('content_permissions')
          .where('target_type', '=', target.type)
          .where('target_id', '=', target.id)
          .where('principal_type', '=', principalType)
          .where('principal_id', '=', id)
          .execute();
        continue;
      }
      await trx
        .insertInto('content_permissions')
        .values({
          organization_id: target.organizationId,
          target_type: target.type,
          target_id: target.id,
          principal_type: principalType,
          principal_id: id,
          role,
          created_at: nowIso(),
        })
        .onConflict((oc) =>
          oc.columns(['target_type', 'target_id', 'principal_type', 'principal_id']).doUpdateSet({ role }),
        )
        .execute();
    }
  });
}

export async function findGrant(db: Db, target: Target, principalType: PrincipalType, id: string) {
  return db
    .selectFrom('content_permissions')
    .select('role')
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('principal_type', '=', principalType)
    .where('principal_id', '=', id)
    .executeTakeFirst();
}

/** Direct grants of one principal type on the target, oldest first. */
export async function listGrants(
  db: Db,
  target: Target,
  principalType: PrincipalType,
  paging: { page?: string; limit?: number },
) {
  const q = db
    .selectFrom('content_permissions')
    .select(['principal_id', 'role', 'created_at'])
    .where('target_type', '=', target.type)
    .where('target_id', '=', target.id)
    .where('principal_type', '=', principalType);
  return paginate(
    q,
    [
      { column: 'content_permissions.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'content_permissions.principal_id', direction: 'asc', value: (r) => r.principal_id },
    ],
    paging,
  );
}

/**
 * How many live spaces each principal holds a direct grant on: the `spaces` count of members and
 * teams (spaces reached through teams or inheritance are not counted).
 */
export async function grantedSpaceCounts(
  db: Db,
  principalType: PrincipalType,
  ids: string[],
  organizationId?: string,
): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  if (ids.length === 0) return counts;
  let query = db
    .selectFrom('content_permissions')
    .innerJoin('spaces', 'spaces.id', 'content_permissions.target_id')
    .select(['content_permissions.principal_id', sql<number>`count(*)`.as('n')])
    .where('content_permissions.target_type', '=', 'space')
    .where('content_permissions.principal_type', '=', principalType)
    .where('content_permissions.principal_id', 'in', ids)
    .where('spaces.deleted_at', 'is', null)
    .groupBy('content_permissions.principal_id');
  // A user's grants in other organizations do not count here (a team has only one organization).
  if (organizationId) query = query.where('content_permissions.organization_id', '=', organizationId);
  for (const row of await query.execute()) counts.set(row.principal_id, Number(row.n));
  return counts;
}
