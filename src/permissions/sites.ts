/**
 * Who may do what on a docs site. Sites belong to the organization, not to the content tree, so the
 * organization role decides:
 * - `read` and above (members who are not guests) see sites; to everyone else a site does not exist (404);
 * - `create` and above create sites and change them (settings, site spaces, sections, redirects,
 *   customization);
 * - `admin` deletes them and manages their share links; and decides who can read a site
 *   (`publish`): publishing and unpublishing it, its `visibility`, its visitor authentication —
 *   so a member who may only change a site cannot open a share-link or visitor-auth site to everyone.
 * A member who can see the site but lacks the role gets a 403.
 */
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/database.js';
import type { SiteRow, SpaceRow } from '../db/schema.js';
import { caller } from '../http/auth.js';
import { forbidden, notFound } from '../lib/errors.js';
import type { Role } from '../lib/schemas.js';
import { authorizeSpace } from './content.js';
import { findMembership } from './organization.js';
import { atLeast } from './roles.js';

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
  /** The caller's organization role (never a guest's null: guests do not see sites). */
  role: Role;
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
  const membership = await findMembership(db, organizationId, userId);
  const visible = membership !== null && membership.role !== null && !membership.disabled;
  const site = visible ? await find(db, organizationId, siteId) : undefined;
  if (!site || !membership?.role) throw notFound(`site ${siteId} not found`);
  requireSiteRole(membership.role, action, what);
  return { site, role: membership.role };
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
