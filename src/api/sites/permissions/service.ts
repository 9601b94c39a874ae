/**
 * Changes of the roles granted on a site to users and teams. Every change takes the admin role on
 * the site (the organization's, or one granted there): who may manage a site is a site admin's call.
 * The grants live with the content grants (`content_permissions`, target type `site`), so the
 * resolver's caches drop them with the others (`accessChanged`, in the grants repo).
 */
import type { DbOrTrx } from '../../../core/service.js';
import { inTransaction, type ServiceContext } from '../../../core/service.js';
import { recordEvent } from '../../../events/record.js';
import { badRequest, notFound } from '../../../lib/errors.js';
import type { Role } from '../../../lib/schemas.js';
import type { PrincipalType } from '../../../permissions/grants.js';
import { findGrant, requirePrincipals, setGrants, type Target } from '../../grants/repo.js';
import { siteToChange } from '../shared/service.js';

const MANAGE = 'manage its permissions';

async function siteTarget(ctx: ServiceContext, organizationId: string, siteId: string): Promise<Target> {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', MANAGE);
  return { type: 'site', id: site.id, organizationId: site.organization_id };
}

/** Records `site.permissions.updated`: the grants as they are now of the principals the change named. */
async function recordSiteGrants(
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
    type: 'site.permissions.updated',
    organizationId: target.organizationId,
    target: { object: 'site', id: target.id },
    data: { object: { object: 'permissions', site: target.id, grants } },
  });
}

/** `inviteToSite`: gives (role null: takes away) the role to every listed user and team, all or none. */
export async function inviteToSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: { users?: string[]; teams?: string[]; role: Role | null },
): Promise<void> {
  const { users = [], teams = [], role } = input;
  if (users.length === 0 && teams.length === 0) throw badRequest('body must name users or teams to invite');
  const target = await siteTarget(ctx, organizationId, siteId);
  await inTransaction(ctx.db, async (trx) => {
    await requirePrincipals(trx, target.organizationId, 'user', users, 'body/users');
    await requirePrincipals(trx, target.organizationId, 'team', teams, 'body/teams');
    await setGrants(trx, target, 'user', users, role);
    await setGrants(trx, target, 'team', teams, role);
    await recordSiteGrants(trx, ctx, target, [
      ...[...new Set(users)].map((id) => ({ type: 'user' as const, id })),
      ...[...new Set(teams)].map((id) => ({ type: 'team' as const, id })),
    ]);
  });
}

/** `update…PermissionInSite`: changes the role of a principal that holds a grant on the site (404 otherwise). */
export async function updateSiteGrant(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  principal: PrincipalType,
  principalId: string,
  role: Role | undefined,
): Promise<void> {
  const target = await siteTarget(ctx, organizationId, siteId);
  await inTransaction(ctx.db, async (trx) => {
    if (!(await findGrant(trx, target, principal, principalId))) {
      throw notFound(`${principal} ${principalId} has no permission on this site`);
    }
    if (role === undefined) return;
    await setGrants(trx, target, principal, [principalId], role);
    await recordSiteGrants(trx, ctx, target, [{ type: principal, id: principalId }]);
  });
}

/** `remove…FromSite`: whether a grant was there to remove (205) or not (204, nothing changes). */
export async function removeSiteGrant(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  principal: PrincipalType,
  principalId: string,
): Promise<boolean> {
  const target = await siteTarget(ctx, organizationId, siteId);
  return inTransaction(ctx.db, async (trx) => {
    if (!(await findGrant(trx, target, principal, principalId))) return false;
    await setGrants(trx, target, principal, [principalId], null);
    await recordSiteGrants(trx, ctx, target, [{ type: principal, id: principalId }]);
    return true;
  });
}
