/**
 * The changes of a site's share links: create, update (name, active), delete. They are secrets
 * that open a `share-link` site, so organization admins make them.
 */

import { type DbOrTrx, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { Db } from '../../../db/database.js';
import type { SiteRow, SiteShareLinkRow } from '../../../db/schema.js';
import { recordEvent } from '../../../events/record.js';
import { notFound } from '../../../lib/errors.js';
import { loadSiteOrganization } from '../../../sites/repo.js';
import { PublishedUrls } from '../../../sites/urls.js';
import { siteToChange } from '../shared/service.js';
import { presentShareLink } from './present.js';
import { createShareLink, deleteShareLink, findShareLink, updateShareLink } from './repo.js';

const ACTION = 'manage its share links';

async function existing(ctx: ServiceContext, siteId: string, id: string): Promise<SiteShareLinkRow> {
  const row = await findShareLink(ctx.db, siteId, id);
  if (!row) throw notFound(`share link ${id} not found`);
  return row;
}

/** Records `share_link.created|updated|deleted` with the link as the API presents it to admins (who alone see links). */
async function recordShareLinkEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'share_link.created' | 'share_link.updated' | 'share_link.deleted',
  site: SiteRow,
  link: SiteShareLinkRow,
) {
  const urls = new PublishedUrls(site, await loadSiteOrganization(trx as Db, site.organization_id), ctx.urls);
  await recordEvent(trx, ctx, {
    type,
    organizationId: site.organization_id,
    target: { object: 'share-link', id: link.id, label: link.name },
    data: { object: presentShareLink(link, urls) },
  });
}

/** A changed share link with its site (the link's URL is the site's). */
export interface ChangedShareLink {
  site: SiteRow;
  link: SiteShareLinkRow;
}

export async function createSiteShareLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  name: string,
): Promise<ChangedShareLink> {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', ACTION);
  const link = await inTransaction(ctx.db, async (trx) => {
    const row = await createShareLink(trx, site.id, name);
    await recordShareLinkEvent(trx, ctx, 'share_link.created', site, row);
    return row;
  });
  return { site, link };
}

/** Renames, activates or deactivates the link; returns it as stored now. */
export async function updateSiteShareLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
  patch: { name?: string; active?: boolean },
): Promise<ChangedShareLink> {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', ACTION);
  const row = await existing(ctx, site.id, shareLinkId);
  const link = await inTransaction(ctx.db, async (trx) => {
    await updateShareLink(trx, row.id, patch);
    const changed = (await findShareLink(trx, site.id, shareLinkId)) as SiteShareLinkRow;
    await recordShareLinkEvent(trx, ctx, 'share_link.updated', site, changed);
    return changed;
  });
  return { site, link };
}

export async function deleteSiteShareLink(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  shareLinkId: string,
): Promise<void> {
  const { site } = await siteToChange(ctx, organizationId, siteId, 'admin', ACTION);
  const row = await existing(ctx, site.id, shareLinkId);
  await inTransaction(ctx.db, async (trx) => {
    await deleteShareLink(trx, row.id);
    await recordShareLinkEvent(trx, ctx, 'share_link.deleted', site, row);
  });
}
