/**
 * Counts over direct grants (`content_permissions`) that several areas show: the `spaces` count of
 * members and of teams. Kept below the API so that the members, teams and grants areas need not
 * import each other for it.
 */
import { type Expression, expressionBuilder, sql } from 'kysely';
import type { DbOrTrx } from '../core/service.js';
import type { Database } from '../db/schema.js';

/** Who a grant is given to. */
export type PrincipalType = 'user' | 'team';

/**
 * How many live spaces each principal holds a direct grant on: the `spaces` count of members and
 * teams (spaces reached through teams or inheritance are not counted).
 */
export async function grantedSpaceCounts(
  db: DbOrTrx,
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

/**
 * The same count for one principal, as a correlated subquery a list selects with its rows
 * (`principalId` refers to the outer row), so a page needs no second query and no `in (…)` list.
 */
export function grantedSpaceCount(
  principalType: PrincipalType,
  principalId: Expression<string>,
  organizationId?: string,
) {
  let query = expressionBuilder<Database, never>()
    .selectFrom('content_permissions')
    .innerJoin('spaces', 'spaces.id', 'content_permissions.target_id')
    .select((inner) => inner.fn.countAll<number | string>().as('n'))
    .where('content_permissions.target_type', '=', 'space')
    .where('content_permissions.principal_type', '=', principalType)
    .where('content_permissions.principal_id', '=', principalId)
    .where('spaces.deleted_at', 'is', null);
  if (organizationId) query = query.where('content_permissions.organization_id', '=', organizationId);
  return query;
}
