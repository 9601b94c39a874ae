/**
 * The changes of a site's redirects: create, update, delete. Members who change the site make
 * them; a source is unique in the site (409) and a destination must be in the site (400).
 */
import { notFound } from '../../../core/errors.js';
import { inTransaction, type ServiceContext } from '../../../core/service.js';
import type { SiteRedirectRow } from '../../../db/schema.js';
import { siteToChange, withStructure } from '../shared/service.js';
import { createRedirect, type Destination, deleteRedirect, findRedirect, updateRedirect } from './repo.js';

async function existing(ctx: ServiceContext, siteId: string, id: string): Promise<SiteRedirectRow> {
  const row = await findRedirect(ctx.db, siteId, id);
  if (!row) throw notFound(`site redirect ${id} not found`);
  return row;
}

export async function createSiteRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: { source: string; destination: Destination },
): Promise<SiteRedirectRow> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  return withStructure(ctx, site.id, (trx, structure) => createRedirect(trx, structure, site.id, input));
}

/** Changes the source or the destination; returns the redirect as stored now. */
export async function updateSiteRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  redirectId: string,
  patch: { source?: string; destination?: Destination },
): Promise<SiteRedirectRow> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  const row = await existing(ctx, site.id, redirectId);
  await withStructure(ctx, site.id, (trx, structure) => updateRedirect(trx, structure, row, patch));
  return existing(ctx, site.id, redirectId);
}

export async function deleteSiteRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  redirectId: string,
): Promise<void> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  const row = await existing(ctx, site.id, redirectId);
  await inTransaction(ctx.db, (trx) => deleteRedirect(trx, row.id));
}
