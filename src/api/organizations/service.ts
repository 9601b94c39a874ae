/** Changes of organizations: create (the caller becomes its admin), update, and a member's ping. */
import type { Static } from 'typebox';
import { signingKey } from '../../core/keys.js';
import { actingUser, inTransaction, type ServiceContext } from '../../core/service.js';
import type { OrganizationRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import { badRequest, notFound } from '../../lib/errors.js';
import { looksLikeId } from '../../lib/ids.js';
import { findMembership, requireOrgMember, requireOrgRole } from '../../permissions/organization.js';
import { presentOrganization } from './present.js';
import * as repo from './repo.js';
import type { CreateOrganizationBody, UpdateOrganizationBody } from './schemas.js';

/**
 * The stored form of a hostname (the body's pattern has checked its characters): lower-cased, since
 * addresses find it whatever its case, and never shaped like an id. An address's segment of id shape
 * names an organization by id (src/published/model.ts), so such a hostname could only ever shadow
 * another organization or be unreachable.
 */
function organizationHostname(hostname: string): string {
  if (looksLikeId(hostname)) {
    throw badRequest(`body/hostname "${hostname}" has the shape of an organization id: choose another hostname`);
  }
  return hostname.toLowerCase();
}

/** Creates an organization with the acting user as its admin (the API's caller, or the CLI's bootstrap user). */
export async function createOrganization(
  ctx: ServiceContext,
  input: Static<typeof CreateOrganizationBody>,
): Promise<OrganizationRow> {
  const owner = actingUser(ctx);
  const row = input.hostname === undefined ? input : { ...input, hostname: organizationHostname(input.hostname) };
  return inTransaction(ctx.db, async (trx) => {
    const org = await repo.createOrganization(trx, row, owner.id);
    // Presented as its admin (the creator) sees it.
    const object = presentOrganization(org, { role: 'admin', ownsTeam: false }, ctx.urls);
    await recordEvent(trx, ctx, {
      type: 'organization.created',
      organizationId: org.id,
      target: { object: 'organization', id: org.id, label: object.title },
      data: { object },
    });
    return org;
  });
}

/** Changes the organization's settings; admins only (404 for non-members and guests). */
export async function updateOrganization(
  ctx: ServiceContext,
  organizationId: string,
  input: Static<typeof UpdateOrganizationBody>,
): Promise<void> {
  const membership = await requireOrgMember(ctx.db, organizationId, actingUser(ctx).id);
  if (!(await repo.findOrganization(ctx.db, organizationId)))
    throw notFound(`organization ${organizationId} not found`);
  requireOrgRole(membership, 'admin', 'update the organization');
  const changes = input.hostname === undefined ? input : { ...input, hostname: organizationHostname(input.hostname) };
  await inTransaction(ctx.db, async (trx) => {
    // Presented as its admins see it (only they change it).
    const present = async () =>
      presentOrganization(
        (await repo.findOrganization(trx, organizationId)) as OrganizationRow,
        { role: 'admin', ownsTeam: false },
        ctx.urls,
      );
    const before = await present();
    await repo.updateOrganization(trx, organizationId, changes);
    const object = await present();
    await recordEvent(trx, ctx, {
      type: 'organization.updated',
      organizationId,
      target: { object: 'organization', id: organizationId, label: object.title },
      data: { object, previous: previousValues(before, object) },
    });
  });
}

/**
 * Records that the caller was seen in the organization and returns visitor claims for it (an
 * hour-long JWT signed with the server key). Guests may ping too: the last-seen time is theirs; only
 * strangers get 404.
 */
export async function pingOrganization(ctx: ServiceContext, organizationId: string): Promise<string> {
  const user = actingUser(ctx);
  const membership = await findMembership(ctx.db, organizationId, user.id);
  if (!membership || membership.disabled) throw notFound(`organization ${organizationId} not found`);
  await inTransaction(ctx.db, (trx) => repo.touchLastSeen(trx, organizationId, user.id), {
    withoutEvent: 'pingOrganization',
  });
  // jose is loaded on first use (idle memory): few processes ever sign one of these.
  const { SignJWT } = await import('jose');
  return new SignJWT({ organization: organizationId, role: membership.role })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(user.id)
    .setIssuedAt()
    .setExpirationTime('1h')
    .sign(await signingKey(ctx.db));
}
