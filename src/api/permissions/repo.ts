/** Grants of roles to users and teams on spaces and collections (`content_permissions`). */

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
