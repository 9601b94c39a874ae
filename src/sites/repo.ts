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
