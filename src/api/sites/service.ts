/**
 * The changes of a Site itself: create, update (settings, the default section and site space),
 * delete, publish and unpublish, its visitor authentication. Members with `create` and above create
 * and change sites; admins delete them and decide who reads them: publish and unpublish them, change
 * their visibility and manage their visitor authentication (src/permissions/sites.ts).
 */
import type { Static } from 'typebox';
import { actingUser, type DbOrTrx, inTransaction, type ServiceContext } from '../../core/service.js';
import type { Db } from '../../db/database.js';
import type { SiteRow, SpaceRow } from '../../db/schema.js';
import { previousValues } from '../../events/changes.js';
import { recordEvent } from '../../events/record.js';
import type { EventType } from '../../events/types.js';
import { badRequest } from '../../lib/errors.js';
import type { Role } from '../../lib/schemas.js';
import { accessChanged } from '../../permissions/access-cache.js';
import { authorizeSite, authorizeSites, requireSiteRole, requireSpaceForSite } from '../../permissions/sites.js';
import { siteNodesChanged } from '../../sites/node-cache.js';
import { findSite, loadSiteOrganization } from '../../sites/repo.js';
import { makeDefaultSection } from '../../sites/sections.js';
import { makeDefaultSiteSpace } from '../../sites/site-spaces.js';
import { loadStructure } from '../../sites/structure.js';
import { PublishedUrls } from '../../sites/urls.js';
import {
  createVisitorAuth,
  regenerateVisitorKey,
  updateVisitorAuth,
  type VisitorAuthSettings,
} from '../../sites/visitor-auth.js';
import { presentSite } from './present.js';
import { countSiteSpaces, deleteSite as deleteSiteRow, insertSite, updateSite as updateSiteRow } from './repo.js';
import type { CreateSiteBody, UpdateSiteBody } from './schemas.js';

/** A changed site with the caller's organization role (for its permission flags). */
export interface ChangedSite {
  site: SiteRow;
  role: Role;
}

/** The site as the API presents it to `role`, read in `trx` (the event's `data.object`). */
async function presented(trx: DbOrTrx, ctx: ServiceContext, siteId: string, role: Role) {
  const site = (await findSite(trx as Db, siteId)) as SiteRow;
  const [org, counts] = await Promise.all([
    loadSiteOrganization(trx as Db, site.organization_id),
    countSiteSpaces(trx, [site.id]),
  ]);
  const published = new PublishedUrls(site, org, ctx.urls);
  return presentSite(site, { org, role, siteSpaces: counts.get(site.id) ?? 0, published, urls: ctx.urls });
}

async function recordSiteEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: EventType,
  organizationId: string,
  object: Awaited<ReturnType<typeof presented>>,
  before?: object,
) {
  await recordEvent(trx, ctx, {
    type,
    organizationId,
    target: { object: 'site', id: object.id, label: object.title },
    data: { object, ...(before ? { previous: previousValues(before, object) } : {}) },
  });
}

/**
 * Creates a site with `spaces` (each one the caller may publish) as its first site spaces, and its
 * visitor-authentication settings (sealed with the secrets key).
 */
export async function createSite(
  ctx: ServiceContext,
  organizationId: string,
  input: Static<typeof CreateSiteBody>,
  secretsKey: () => Promise<Buffer>,
): Promise<ChangedSite> {
  const user = actingUser(ctx);
  const role = await authorizeSites(ctx.db, user.id, organizationId, 'write', 'create sites');
  const spaces: SpaceRow[] = [];
  // The same space named twice is added once.
  for (const spaceId of new Set(input.spaces ?? [])) {
    spaces.push(await requireSpaceForSite(ctx.db, user.id, organizationId, spaceId));
  }
  const key = await secretsKey();
  const site = await inTransaction(ctx.db, async (trx) => {
    const row = await insertSite(trx, organizationId, input, spaces);
    await createVisitorAuth(trx, row.id, key);
    siteNodesChanged(trx, organizationId);
    await recordSiteEvent(trx, ctx, 'site.created', organizationId, await presented(trx, ctx, row.id, role));
    return row;
  });
  return { site, role };
}

/**
 * Updates the settings; `defaultSiteSection` must be a section of the site and `defaultSiteSpace`
 * a site space at the root (no sections) or in the default section (after that change).
 */
export async function updateSite(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: Static<typeof UpdateSiteBody>,
): Promise<ChangedSite> {
  const { site, role } = await authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, 'write', 'change it');
  // Who can read the site is the publisher's decision (the same value again changes nothing).
  if (input.visibility !== undefined && input.visibility !== site.visibility) {
    requireSiteRole(role, 'publish', 'change its visibility');
  }
  const { defaultSiteSpace, defaultSiteSection, ...fields } = input;
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, ctx, site.id, role);
    await updateSiteRow(trx, site, fields);
    const structure = await loadStructure(trx, site.id);
    if (defaultSiteSection !== undefined) {
      const section = structure.sectionById.get(defaultSiteSection);
      if (!section) throw badRequest(`body/defaultSiteSection: ${defaultSiteSection} is not a section of this site`);
      await makeDefaultSection(trx, section);
    }
    if (defaultSiteSpace !== undefined) {
      // At the root of a site without sections; in the default section (after the change above) otherwise.
      const defaultSection = structure.hasSections
        ? (defaultSiteSection ?? structure.sections.find((s) => s.is_default === 1)?.id ?? null)
        : null;
      const siteSpace = structure.siteSpaceById.get(defaultSiteSpace);
      if (!siteSpace || siteSpace.section_id !== defaultSection) {
        throw badRequest(
          `body/defaultSiteSpace: ${defaultSiteSpace} is not a site space of ${defaultSection ? 'the default section of this site' : 'this site'}`,
        );
      }
      await makeDefaultSiteSpace(trx, siteSpace);
    }
    await recordSiteEvent(
      trx,
      ctx,
      'site.updated',
      site.organization_id,
      await presented(trx, ctx, site.id, role),
      before,
    );
  });
  return { site, role };
}

/** Deletes the site with its site spaces, sections, groups, redirects and share links. */
export async function deleteSite(ctx: ServiceContext, organizationId: string, siteId: string): Promise<void> {
  const { site, role } = await authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, 'admin', 'delete it');
  await inTransaction(ctx.db, async (trx) => {
    // Recorded first: the event shows the site as it was.
    await recordSiteEvent(trx, ctx, 'site.deleted', site.organization_id, await presented(trx, ctx, site.id, role));
    await deleteSiteRow(trx, site.id);
    siteNodesChanged(trx, site.organization_id);
    accessChanged(trx, site.organization_id);
  });
}

/** Publishes (`published`) or unpublishes the site. */
export async function setSitePublished(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  published: boolean,
): Promise<ChangedSite> {
  const action = published ? 'publish it' : 'unpublish it';
  const { site, role } = await authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, 'publish', action);
  await inTransaction(ctx.db, async (trx) => {
    const before = await presented(trx, ctx, site.id, role);
    await updateSiteRow(trx, site, { published });
    const type = published ? 'site.published' : 'site.unpublished';
    await recordSiteEvent(trx, ctx, type, site.organization_id, await presented(trx, ctx, site.id, role), before);
  });
  return { site, role };
}

/** A change of the site's visitor authentication (admins), in one transaction, with the secrets key. */
async function changeVisitorAuth(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  secretsKey: () => Promise<Buffer>,
  type: 'site.publishing_auth.updated' | 'site.publishing_auth.key_rotated',
  change: (trx: DbOrTrx, siteId: string, key: Buffer) => Promise<VisitorAuthSettings>,
): Promise<VisitorAuthSettings> {
  const action = 'change its visitor authentication';
  const { site } = await authorizeSite(ctx.db, actingUser(ctx).id, organizationId, siteId, 'publish', action);
  const key = await secretsKey();
  return inTransaction(ctx.db, async (trx) => {
    const settings = await change(trx, site.id, key);
    // Never the private key (as webhook events never carry their secret).
    const { privateKey: _, ...shown } = settings;
    await recordEvent(trx, ctx, {
      type,
      organizationId: site.organization_id,
      target: { object: 'site', id: site.id, label: site.title },
      data: { object: { object: 'site-publishing-auth', ...shown } },
    });
    return settings;
  });
}

/** Changes the visitor authentication (backend, fallback and logout URLs) of the site (admins). */
export async function updateSitePublishingAuth(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  patch: { backend: 'custom' | 'integration'; fallbackUrl?: string | null; logoutUrl?: string | null },
  secretsKey: () => Promise<Buffer>,
): Promise<VisitorAuthSettings> {
  return changeVisitorAuth(ctx, organizationId, siteId, secretsKey, 'site.publishing_auth.updated', (trx, id, key) =>
    updateVisitorAuth(trx, id, key, patch),
  );
}

/** A new visitor key for the site (admins): tokens signed with the old one stop opening it at once. */
export async function regenerateSitePublishingAuth(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  secretsKey: () => Promise<Buffer>,
): Promise<VisitorAuthSettings> {
  return changeVisitorAuth(
    ctx,
    organizationId,
    siteId,
    secretsKey,
    'site.publishing_auth.key_rotated',
    regenerateVisitorKey,
  );
}
