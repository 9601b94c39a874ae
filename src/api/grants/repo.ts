/** Grants of roles to users and teams on spaces and collections (`content_permissions`). */

import type { DbOrTrx } from '../../core/service.js';
import { notFound } from '../../lib/errors.js';
import { paginate } from '../../lib/paging.js';
import type { Role } from '../../lib/schemas.js';
import { nowIso } from '../../lib/time.js';
import { accessChanged } from '../../permissions/access-cache.js';
import type { NodeTarget } from '../../permissions/content.js';
import type { PrincipalType } from '../../permissions/grants.js';
import type { NodeType } from '../../permissions/resolver.js';

/**
 * The space, collection or site whose grants are read or changed (authorized by src/permissions;
 * the sites area keeps a site's grants here too, `target_type` `site`).
 */
export type Target = Omit<NodeTarget, 'type'> & { type: NodeTarget['type'] | 'site' };

/** Sets (role) or removes (null) the grant of each principal on the target (the caller's transaction). */
export async function setGrants(
  db: DbOrTrx,
  target: Target,
  principalType: PrincipalType,
  ids: string[],
  role: Role | null,
): Promise<void> {
  for (const id of new Set(ids)) {
    if (role === null) {
      await db
        .deleteFrom('content_permissions')
        .where('target_type', '=', target.type)
        .where('target_id', '=', target.id)
        .where('principal_type', '=', principalType)
        .where('principal_id', '=', id)
        .execute();
      continue;
    }
    await db
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
  accessChanged(db, target.organizationId);
}

/** Which of `ids` are members (users) or teams (teams) of the organization. */
export async function principalsIn(
  db: DbOrTrx,
  organizationId: string,
  type: PrincipalType,
  ids: string[],
): Promise<Set<string>> {
  if (ids.length === 0) return new Set();
  const found =
    type === 'user'
      ? await db
          .selectFrom('members')
          .select('user_id as id')
          .where('organization_id', '=', organizationId)
          .where('user_id', 'in', ids)
          .execute()
      : await db
          .selectFrom('teams')
          .select('id')
          .where('organization_id', '=', organizationId)
          .where('id', 'in', ids)
          .execute();
  return new Set(found.map((r) => r.id));
}

/** The resolver's view of a space or collection (what the aggregate of its roles starts from). */
export async function findNode(db: DbOrTrx, type: NodeType, id: string) {
  const table = type === 'space' ? 'spaces' : 'collections';
  const node = await db
    .selectFrom(table)
    .select(['id', 'parent_id', 'default_level'])
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return { type, ...node };
}

export async function findGrant(db: DbOrTrx, target: Target, principalType: PrincipalType, id: string) {
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
  db: DbOrTrx,
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

/** 404 naming the first id that is not a member (users) or team (teams) of the organization. */
export async function requirePrincipals(
  db: DbOrTrx,
  organizationId: string,
  type: PrincipalType,
  ids: string[],
  field: string,
): Promise<void> {
  const known = await principalsIn(db, organizationId, type, ids);
  const missing = ids.find((id) => !known.has(id));
  // 404, as the official API answers for an unknown user or team.
  if (missing) {
    throw notFound(`${field}: "${missing}" is not a ${type === 'user' ? 'member' : 'team'} of the organization`);
  }
}
