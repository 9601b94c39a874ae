/** Reads every sites sub-area needs: a site, its organization's address fields, a share link by key. */
import type { Db } from '../db/database.js';
import type { SiteRow, SiteShareLinkRow } from '../db/schema.js';
import type { SiteOrganization } from './urls.js';

export async function findSite(db: Db, siteId: string): Promise<SiteRow | undefined> {
  return db.selectFrom('sites').selectAll().where('id', '=', siteId).executeTakeFirst();
}

/** The fields of the organization that published URLs are made of. */
export async function loadSiteOrganization(db: Db, organizationId: string): Promise<SiteOrganization> {
  return db
    .selectFrom('organizations')
    .select(['id', 'hostname', 'custom_hostname'])
    .where('id', '=', organizationId)
    .executeTakeFirstOrThrow();
}

/** The share link of `siteId` whose key is `key`, active or not. */
export async function findShareLinkByKey(
  db: Db,
  siteId: string,
  key: string,
): Promise<Pick<SiteShareLinkRow, 'key' | 'active'> | undefined> {
  return db
    .selectFrom('site_share_links')
    .select(['key', 'active'])
    .where('site_id', '=', siteId)
    .where('key', '=', key)
    .executeTakeFirst();
}

/** Every site of an organization with the live spaces it publishes, as resolver nodes (one row per pair). */
export async function listSiteSpaceNodes(db: Db, organizationId: string) {
  return db
    .selectFrom('site_spaces')
    .innerJoin('sites', 'sites.id', 'site_spaces.site_id')
    .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
    .select(['site_spaces.site_id', 'spaces.id', 'spaces.parent_id', 'spaces.default_level'])
    .where('sites.organization_id', '=', organizationId)
    .where('spaces.deleted_at', 'is', null)
    .execute();
}
