/**
 * The changes of a site's redirects: create, update, delete. Members who change the site make
 * them; a source is unique in the site (409) and a destination must be in the site (400).
 */

import { type DbOrTrx, inTransaction, type ServiceContext } from '../../../core/service.js';
import type { SiteRedirectRow, SiteRow } from '../../../db/schema.js';
import { previousValues } from '../../../events/changes.js';
import { recordEvent } from '../../../events/record.js';
import { ApiError, badRequest, notFound } from '../../../lib/errors.js';
import { siteToChange, withStructure } from '../shared/service.js';
import { presentRedirect } from './present.js';
import {
  createRedirect,
  type Destination,
  deleteRedirect,
  findRedirect,
  findRedirectBySource,
  updateRedirect,
} from './repo.js';

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

export interface BulkRedirectInput {
  source: string;
  intent?: string;
  captureWildcard?: boolean;
  permanent?: boolean;
  destination?: Destination | null;
}

export type BulkRedirectResult =
  | { status: 'created' | 'updated'; source: string; draft: false; id: string }
  | { status: 'deleted'; source: string; draft: false };

/** 400 for what no redirect here can be (see `BulkRedirectEntry`) and for a source named twice. */
function checkEntries(entries: BulkRedirectInput[]): void {
  const seen = new Set<string>();
  entries.forEach((entry, i) => {
    const at = `body/redirects/${i}`;
    if (entry.intent !== undefined && entry.intent !== 'live') {
      throw badRequest(`${at}/intent: only live redirects are supported, not "${entry.intent}"`);
    }
    if (entry.captureWildcard === true) throw badRequest(`${at}/captureWildcard: wildcard capture is not supported`);
    if (entry.permanent === true) throw badRequest(`${at}/permanent: permanent redirects are not supported`);
    if (entry.destination === undefined) throw badRequest(`${at}: must have required property 'destination'`);
    if (seen.has(entry.source)) throw badRequest(`${at}/source: "${entry.source}" is named twice in this request`);
    seen.add(entry.source);
  });
}

/**
 * Creates, updates or deletes (destination null) the redirect of each entry's source, in order, all
 * in one transaction: one entry that cannot be applied (a destination not in the site, a delete of
 * a source without a redirect) is a 400 naming it, and nothing is written. Each change records its
 * own event, as the single operations do.
 */
export async function bulkUpsertSiteRedirects(
  ctx: ServiceContext,
  organizationId: string,
  siteId: string,
  entries: BulkRedirectInput[],
): Promise<BulkRedirectResult[]> {
  const { site } = await siteToChange(ctx, organizationId, siteId);
  checkEntries(entries);
  return withStructure(ctx, site.id, async (trx, structure) => {
    const results: BulkRedirectResult[] = [];
    for (const [i, entry] of entries.entries()) {
      try {
        const before = await findRedirectBySource(trx, site.id, entry.source);
        if (entry.destination === null || entry.destination === undefined) {
          if (!before) throw badRequest(`there is no redirect from ${entry.source} to delete`);
          await deleteRedirect(trx, before.id);
          await recordRedirectEvent(trx, ctx, 'site.redirect.deleted', site, before);
          results.push({ status: 'deleted', source: entry.source, draft: false });
        } else if (before) {
          await updateRedirect(trx, structure, before, { destination: entry.destination });
          const changed = (await findRedirect(trx, site.id, before.id)) as SiteRedirectRow;
          await recordRedirectEvent(trx, ctx, 'site.redirect.updated', site, changed, before);
          results.push({ status: 'updated', source: entry.source, draft: false, id: before.id });
        } else {
          const row = await createRedirect(
            trx,
            structure,
            site.id,
            entry as { source: string; destination: Destination },
          );
          await recordRedirectEvent(trx, ctx, 'site.redirect.created', site, row);
          results.push({ status: 'created', source: entry.source, draft: false, id: row.id });
        }
      } catch (error) {
        // The entry's index in front of the field the single operation's check names.
        if (error instanceof ApiError && error.statusCode === 400) {
          throw badRequest(`body/redirects/${i}: ${error.message.replace(/^body\//, '')}`);
        }
        throw error;
      }
    }
    return results;
  });
}
