/**
 * The changes of a site's redirects: create, update, delete. Members who change the site make
 * them; a source is unique in the site (409) and a destination must be in the site (400).
 */

import { type DbOrTrx, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { SiteRedirectRow, SiteRow } from '../../../db/schema.js';
import { previousValues } from '../../../events/changes.js';
import { recordEvent } from '../../../events/record.js';
import { notFound } from '../../../lib/errors.js';
import { siteToChange, withStructure } from '../shared/service.js';
import { presentRedirect } from './present.js';
import { createRedirect, type Destination, deleteRedirect, findRedirect, updateRedirect } from './repo.js';

async function existing(ctx: ServiceContext, siteId: string, id: string): Promise<SiteRedirectRow> {
  const row = await findRedirect(ctx.db, siteId, id);
  if (!row) throw notFound(`site redirect ${id} not found`);
  return row;
}

/** Records `site.redirect.created|updated|deleted` with the redirect as the API presents it. */
async function recordRedirectEvent(
  trx: DbOrTrx,
  ctx: ServiceContext,
  type: 'site.redirect.created' | 'site.redirect.updated' | 'site.redirect.deleted',
  site: SiteRow,
  row: SiteRedirectRow,
  before?: SiteRedirectRow,
): Promise<void> {
  const object = presentRedirect(row);
  await recordEvent(trx, ctx, {
    type,
    organizationId: site.organization_id,
    target: { object: 'site-redirect', id: row.id, label: row.source },
    data: { object, ...(before ? { previous: previousValues(presentRedirect(before), object) } : {}) },
  });
}

export async function createSiteRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  input: { source: string; destination: Destination },
): Promise<SiteRedirectRow> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  return withStructure(ctx, site.id, async (trx, structure) => {
    const row = await createRedirect(trx, structure, site.id, input);
    await recordRedirectEvent(trx, ctx, 'site.redirect.created', site, row);
    return row;
  });
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
  return withStructure(ctx, site.id, async (trx, structure) => {
    await updateRedirect(trx, structure, row, patch);
    const changed = (await findRedirect(trx, site.id, redirectId)) as SiteRedirectRow;
    await recordRedirectEvent(trx, ctx, 'site.redirect.updated', site, changed, row);
    return changed;
  });
}

export async function deleteSiteRedirect(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  redirectId: string,
): Promise<void> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  const row = await existing(ctx, site.id, redirectId);
  await inTransaction(ctx.db, async (trx) => {
    await deleteRedirect(trx, row.id);
    await recordRedirectEvent(trx, ctx, 'site.redirect.deleted', site, row);
  });
}
