import type { Static } from 'typebox';
import type { DbOrTrx } from '../../../core/service.js';
import type { SiteRedirectRow } from '../../../db/schema.js';
import { badRequest, conflict } from '../../../lib/errors.js';
import { newId } from '../../../lib/ids.js';
import { type Page, paginate } from '../../../lib/paging.js';
import { nowIso } from '../../../lib/time.js';
import type { Structure } from '../../../sites/structure.js';
import type { RedirectDestination } from './schemas.js';

export type Destination = Static<typeof RedirectDestination>;

/** Columns of a destination; a section or site space that is not the site's is a 400. */
function destinationColumns(structure: Structure, destination: Destination) {
  switch (destination.kind) {
    case 'site-section':
      if (!structure.sectionById.has(destination.siteSectionId)) {
        throw badRequest(`body/destination/siteSectionId: ${destination.siteSectionId} is not a section of this site`);
      }
      return { destination_kind: 'site-section', destination_id: destination.siteSectionId, destination_url: null };
    case 'site-space':
      if (!structure.siteSpaceById.has(destination.siteSpaceId)) {
        throw badRequest(`body/destination/siteSpaceId: ${destination.siteSpaceId} is not a site space of this site`);
      }
      return { destination_kind: 'site-space', destination_id: destination.siteSpaceId, destination_url: null };
    case 'external':
      return { destination_kind: 'external', destination_id: null, destination_url: destination.url };
  }
}

async function assertSourceFree(db: DbOrTrx, siteId: string, source: string, exceptId?: string): Promise<void> {
  let q = db.selectFrom('site_redirects').select('id').where('site_id', '=', siteId).where('source', '=', source);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw conflict(`body/source "${source}" already has a redirect on this site`);
}

export async function listRedirects(
  db: DbOrTrx,
  siteId: string,
  options: { page?: string; limit?: number },
): Promise<Page<SiteRedirectRow>> {
  return paginate(
    db.selectFrom('site_redirects').selectAll().where('site_id', '=', siteId),
    [
      { column: 'site_redirects.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'site_redirects.id', direction: 'asc', value: (r) => r.id },
    ],
    options,
  );
}

export async function findRedirect(db: DbOrTrx, siteId: string, id: string): Promise<SiteRedirectRow | undefined> {
  return db
    .selectFrom('site_redirects')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

export async function findRedirectBySource(db: DbOrTrx, siteId: string, source: string) {
  return db
    .selectFrom('site_redirects')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('source', '=', source)
    .executeTakeFirst();
}

export async function createRedirect(
  db: DbOrTrx,
  structure: Structure,
  siteId: string,
  input: { source: string; destination: Destination },
): Promise<SiteRedirectRow> {
  await assertSourceFree(db, siteId, input.source);
  const now = nowIso();
  const row: SiteRedirectRow = {
    id: newId(),
    site_id: siteId,
    source: input.source,
    ...destinationColumns(structure, input.destination),
    created_at: now,
    updated_at: now,
  };
  await db.insertInto('site_redirects').values(row).execute();
  return row;
}

export async function updateRedirect(
  db: DbOrTrx,
  structure: Structure,
  row: SiteRedirectRow,
  patch: { source?: string; destination?: Destination },
): Promise<void> {
  if (patch.source !== undefined) await assertSourceFree(db, row.site_id, patch.source, row.id);
  await db
    .updateTable('site_redirects')
    .set({
      updated_at: nowIso(),
      ...(patch.source !== undefined ? { source: patch.source } : {}),
      ...(patch.destination !== undefined ? destinationColumns(structure, patch.destination) : {}),
    })
    .where('id', '=', row.id)
    .execute();
}

export async function deleteRedirect(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('site_redirects').where('id', '=', id).execute();
}
