/**
 * Who may do what on a docs site. A member's role on a site is the highest of their organization
 * role and the roles granted on that site to them or to one of their teams (`inviteToSite`, stored
 * with the other grants in `content_permissions`, target type `site`); a guest has only the grants.
 * That role decides:
 * - any role sees the site; to everyone else (and to disabled members) it does not exist (404);
 * - `create` and above create sites and change them (settings, site spaces, sections, redirects,
 *   customization);
 * - `admin` deletes them and manages their share links; and decides who can read a site
 *   (`publish`): publishing and unpublishing it, its `visibility`, its visitor authentication —
 *   so a member who may only change a site cannot open a share-link or visitor-auth site to everyone.
 * A member who can see the site but lacks the role gets a 403.
 */
import type { FastifyRequest } from 'fastify';
import { siteOfReader } from '../core/site-tokens.js';
import type { Db } from '../db/database.js';
import type { SiteRow, SpaceRow } from '../db/schema.js';
import { caller } from '../http/auth.js';
import { forbidden, notFound } from '../lib/errors.js';
import type { Role } from '../lib/schemas.js';
import { grantsOfUser } from './access-cache.js';
import { authorizeSpace } from './content.js';
import { findMembership, type OrgMembership } from './organization.js';
import { atLeast, highest } from './roles.js';
import { siteReaderSeesSite } from './site-reader.js';

/** What each kind of site operation needs (`publish`: anything that changes who can read the site). */
export type SiteAction = 'read' | 'write' | 'publish' | 'admin';

const NEEDED: Record<SiteAction, Role> = { read: 'read', write: 'create', publish: 'admin', admin: 'admin' };

/** 403 unless `role` may do `action` (for a caller already known to see the site). */
export function requireSiteRole(role: Role, action: SiteAction, what: string): void {
  if (!atLeast(role, NEEDED[action]))
    throw forbidden(`you need the ${NEEDED[action]} role in the organization to ${what}`);
}

export interface AuthorizedSite<T extends SiteRow = SiteRow> {
  site: T;
  /** The caller's role on the site: their organization role or a higher one granted on the site. */
  role: Role;
}

/**
 * The role of an enabled member on the site `siteId`: the highest of their organization role (null
 * for a guest) and the grants on the site reaching them (cached with the resolver's other facts).
 */
export async function siteRoleOf(db: Db, membership: OrgMembership | null, siteId: string): Promise<Role | null> {
  if (!membership || membership.disabled) return null;
  const grants = await grantsOfUser(db, membership.organizationId, membership.userId);
  return highest([membership.role, grants.get(`site:${siteId}`)]);
}

/** The caller's role on each of `siteIds` (a page of sites), from one membership and one grant map. */
export async function siteRolesOf(
  db: Db,
  userId: string,
  organizationId: string,
  siteIds: string[],
): Promise<Map<string, Role | null>> {
  const membership = await findMembership(db, organizationId, userId);
  const roles = new Map<string, Role | null>();
  if (!membership || membership.disabled) return roles;
  const grants = await grantsOfUser(db, organizationId, userId);
  for (const id of siteIds) roles.set(id, highest([membership.role, grants.get(`site:${id}`)]));
  return roles;
}

/** The caller's organization role if they may do `action` on the organization's sites (404 / 403 otherwise). */
export async function authorizeSites(
  db: Db,
  userId: string,
  organizationId: string,
  action: SiteAction,
  what: string,
): Promise<Role> {
  const membership = await findMembership(db, organizationId, userId);
  if (!membership?.role || membership.disabled) throw notFound(`organization ${organizationId} not found`);
  if (!atLeast(membership.role, NEEDED[action])) {
    throw forbidden(`you need the ${NEEDED[action]} role in the organization to ${what}`);
  }
  return membership.role;
}

function findSiteOf(db: Db, organizationId: string, siteId: string): Promise<SiteRow | undefined> {
  return db
    .selectFrom('sites')
    .selectAll()
    .where('id', '=', siteId)
    .where('organization_id', '=', organizationId)
    .executeTakeFirst();
}

/**
 * The site `siteId` of `organizationId` if the caller may do `action` on it (404 / 403 otherwise).
 * `find` loads it (by default its row alone; reads load what they show with it).
 */
export async function authorizeSite<T extends SiteRow = SiteRow>(
  db: Db,
  userId: string,
  organizationId: string,
  siteId: string,
  action: SiteAction,
  what: string,
  find: (db: Db, organizationId: string, siteId: string) => Promise<T | undefined> = findSiteOf as typeof find,
): Promise<AuthorizedSite<T>> {
  const readerOf = siteOfReader(userId);
  if (readerOf !== null) {
    // A site token reads its own published site, nothing else (src/permissions/site-reader.ts).
    const site = readerOf === siteId && (await siteReaderSeesSite(db, organizationId, siteId));
    const row = site ? await find(db, organizationId, siteId) : undefined;
    if (!row) throw notFound(`site ${siteId} not found`);
    requireSiteRole('read', action, what);
    return { site: row, role: 'read' };
  }
  const membership = await findMembership(db, organizationId, userId);
  const role = await siteRoleOf(db, membership, siteId);
  const site = role ? await find(db, organizationId, siteId) : undefined;
  if (!site || !role) throw notFound(`site ${siteId} not found`);
  requireSiteRole(role, action, what);
  return { site, role };
}

/** The Site `permissions` flags for an organization role. */
export function siteFlags(role: Role | null) {
  const create = atLeast(role, 'create');
  const admin = atLeast(role, 'admin');
  return {
    view: atLeast(role, 'read'),
    access: atLeast(role, 'read'),
    edit: atLeast(role, 'edit'),
    create,
    admin,
    installIntegration: admin,
    viewAdaptiveSchema: atLeast(role, 'read'),
    editAdaptiveSchema: admin,
  };
}

/**
 * A space the caller may publish on a site of `organizationId`: it must exist, not be deleted, belong
 * to that organization and be readable by the caller — otherwise it does not exist for them (404).
 */
export async function requireSpaceForSite(
  db: Db,
  userId: string,
  organizationId: string,
  spaceId: string,
): Promise<SpaceRow> {
  const { row } = await authorizeSpace(db, userId, spaceId, 'read', 'publish it');
  if (row.organization_id !== organizationId) throw notFound(`space ${spaceId} not found`);
  return row;
}

/** {@link authorizeSite} for the `organizationId` and `siteId` path parameters of `request`. */
export function authorizeSiteOf<T extends SiteRow = SiteRow>(
  db: Db,
  request: FastifyRequest,
  action: SiteAction,
  what: string,
  find?: (db: Db, organizationId: string, siteId: string) => Promise<T | undefined>,
) {
  const { organizationId, siteId } = request.params as { organizationId: string; siteId: string };
  return authorizeSite<T>(db, caller(request).user.id, organizationId, siteId, action, what, find);
}
