/**
 * Changes of the roles granted on a site to users and teams. Every change takes the admin role on
 * the site (the organization's, or one granted there): who may manage a site is a site admin's call.
 * The grants live with the content grants (`content_permissions`, target type `site`), so the
 * resolver's caches drop them with the others (`accessChanged`, in the grants repo).
 */
import type { ServiceContext } from '../../../core/service.js';
import type { Role } from '../../../lib/schemas.js';
import type { PrincipalType } from '../../../permissions/grants.js';
import type { Target } from '../../grants/repo.js';
import { changeGrantOnTarget, type GrantInput, grantOnTarget, removeGrantOnTarget } from '../../grants/service.js';
import { siteToChange } from '../shared/service.js';

const MANAGE = 'manage its permissions';

async function siteTarget(ctx: ServiceContext, organizationId: string, siteId: string): Promise<Target> {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', MANAGE);
  return { type: 'site', id: site.id, organizationId: site.organization_id };
}

/** `inviteToSite`: gives (role null: takes away) the role to every listed user and team, all or none. */
export async function inviteToSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: GrantInput,
): Promise<void> {
  await grantOnTarget(ctx, await siteTarget(ctx, organizationId, siteId), input);
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
  await changeGrantOnTarget(ctx, target, { type: principal, id: principalId }, role, 'on this site');
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
  return removeGrantOnTarget(ctx, target, { type: principal, id: principalId });
}
