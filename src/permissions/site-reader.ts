/**
 * The site reader: the principal a site API token acts as (src/core/site-tokens.ts). It is no member
 * of any organization; it reads its one site while that site is published, and the spaces of that
 * site's site spaces (live, of the site's organization), with the `read` role and nothing more.
 * Everything else (the organization, its other sites and spaces, collections) does not exist for it.
 */
import type { Db } from '../db/database.js';

/** The ids of the spaces a site's reader may read; empty when the site is not published (or not of `organizationId`). */
export async function siteReaderSpaces(db: Db, organizationId: string, siteId: string): Promise<Set<string>> {
  const rows = await db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select('site_spaces.space_id')
    .where('sites.id', '=', siteId)
    .where('sites.organization_id', '=', organizationId)
    .where('sites.published', '=', 1)
    .where('spaces.organization_id', '=', organizationId)
    .where('spaces.deleted_at', 'is', null)
    .execute();
  return new Set(rows.map((r) => r.space_id));
}

/** Whether the reader of `siteId` may read the site itself (it is of `organizationId` and published). */
export async function siteReaderSeesSite(db: Db, organizationId: string, siteId: string): Promise<boolean> {
  const row = await db
    .selectFrom('sites')
    .select('id')
    .where('id', '=', siteId)
    .where('organization_id', '=', organizationId)
    .where('published', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}
