/**
 * Changes of grants (roles given to users and teams on a space or a collection). Every change takes
 * the admin role on the space or collection.
 */

import type { DbOrTrx } from '../../core/service.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import { recordEvent } from '../../events/record.js';
import { badRequest, notFound } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { authorizeNode, type NodeRef } from '../../permissions/content.js';
import type { PrincipalType } from '../../permissions/grants.js';
import { rank } from '../../permissions/roles.js';
import { findGrant, requirePrincipals, setGrants, type Target } from './repo.js';

/**
 * Records `space.permissions.updated` (or `collection.…`, `site.…`): the grants as they are now for
 * the principals the change named (role null: none left).
 */
async function recordGrantsEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  target: Target,
  principals: { type: PrincipalType; id: string }[],
) {
  const grants = await Promise.all(
    principals.map(async (p) => ({
      [p.type]: p.id,
      role: ((await findGrant(trx, target, p.type, p.id))?.role ?? null) as Role | null,
    })),
  );
  await recordEvent(trx, ctx, {
    type: `${target.type}.permissions.updated`,
    organizationId: target.organizationId,
    target: { object: target.type, id: target.id },
    data: { object: { object: 'permissions', [target.type]: target.id, grants } },
  });
}

const MANAGE = 'manage its permissions';

export interface GrantInput {
  users?: string[];
  teams?: string[];
  role: Role | null;
}

/**
 * On a target the caller may administer (authorized before): gives (role null: takes away) the
 * role to every listed user and team, all or none, in one transaction with its event.
 */
export async function grantOnTarget(ctx: ServiceContext, target: Target, input: GrantInput): Promise<void> {
  const { users = [], teams = [], role } = input;
  if (users.length === 0 && teams.length === 0) throw badRequest('body must name users or teams to invite');
  await inTransaction(ctx.db, async (trx) => {
    await requirePrincipals(trx, target.organizationId, 'user', users, 'body/users');
    await requirePrincipals(trx, target.organizationId, 'team', teams, 'body/teams');
    await setGrants(trx, target, 'user', users, role);
    await setGrants(trx, target, 'team', teams, role);
    const named = [
      ...[...new Set(users)].map((id) => ({ type: 'user' as const, id })),
      ...[...new Set(teams)].map((id) => ({ type: 'team' as const, id })),
    ];
    await recordGrantsEvent(trx, ctx, target, named);
  });
}

/**
 * On an authorized target: changes the role of a principal that holds a grant there (404 naming
 * `where` when it holds none); no role changes nothing.
 */
export async function changeGrantOnTarget(
  ctx: ServiceContext,
  target: Target,
  principal: { type: PrincipalType; id: string },
  role: Role | null | undefined,
  where = 'here',
): Promise<void> {
  await inTransaction(ctx.db, async (trx) => {
    if (!(await findGrant(trx, target, principal.type, principal.id))) {
      throw notFound(`${principal.type} ${principal.id} has no permission ${where}`);
    }
    if (role === undefined) return;
    await setGrants(trx, target, principal.type, [principal.id], role);
    await recordGrantsEvent(trx, ctx, target, [principal]);
  });
}

/** On an authorized target: removes a principal's grant; whether there was one (none: nothing changes). */
export async function removeGrantOnTarget(
  ctx: ServiceContext,
  target: Target,
  principal: { type: PrincipalType; id: string },
): Promise<boolean> {
  return inTransaction(ctx.db, async (trx) => {
    if (!(await findGrant(trx, target, principal.type, principal.id))) return false;
    await setGrants(trx, target, principal.type, [principal.id], null);
    await recordGrantsEvent(trx, ctx, target, [principal]);
    return true;
  });
}

/** Gives (or with a null role, takes away) the role to every listed user and team, all or none. */
export async function inviteToNode(ctx: ServiceContext, node: NodeRef, input: GrantInput): Promise<void> {
  const { target } = await authorizeNode(ctx.db, actingUser(ctx).id, node, 'admin', MANAGE);
  await grantOnTarget(ctx, target, input);
}

/**
 * Gives `userId` the role on the target unless they hold that or more there already, in the
 * caller's transaction (which authorized it: joining with an invite link); records the event when
 * it changed. Whether it did.
 */
export async function raiseUserGrant(
  trx: DbOrTrx,
  ctx: ServiceContext,
  target: Target,
  userId: string,
  role: Role,
): Promise<boolean> {
  const held = (await findGrant(trx, target, 'user', userId))?.role as Role | undefined;
  if (held && rank(held) >= rank(role)) return false;
  await setGrants(trx, target, 'user', [userId], role);
  await recordGrantsEvent(trx, ctx, target, [{ type: 'user', id: userId }]);
  return true;
}

/** Changes the role of a principal that holds a grant there (404 when it holds none). */
export async function updateGrant(
  ctx: ServiceContext,
  node: NodeRef,
  principal: PrincipalType,
  principalId: string,
  role: Role | null | undefined,
): Promise<void> {
  const { target } = await authorizeNode(ctx.db, actingUser(ctx).id, node, 'admin', MANAGE);
  await changeGrantOnTarget(ctx, target, { type: principal, id: principalId }, role);
}

/** Removes a principal's grant; removing one that is not there changes nothing, as in the official API. */
export async function removeGrant(
  ctx: ServiceContext,
  node: NodeRef,
  principal: PrincipalType,
  principalId: string,
): Promise<void> {
  const { target } = await authorizeNode(ctx.db, actingUser(ctx).id, node, 'admin', MANAGE);
  await removeGrantOnTarget(ctx, target, { type: principal, id: principalId });
}
