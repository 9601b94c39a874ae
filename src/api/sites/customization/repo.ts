/** The stored customization of a site and of its site spaces (JSON text; null: the defaults). */
import type { DbOrTrx } from '../../../core/service.js';
import type { SiteSpaceRow } from '../../../db/schema.js';
import { nowIso } from '../../../lib/time.js';

export async function findSiteSpaceOf(
  db: DbOrTrx,
  siteId: string,
  siteSpaceId: string,
): Promise<SiteSpaceRow | undefined> {
  return db
    .selectFrom('site_spaces')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', siteSpaceId)
    .executeTakeFirst();
}

export async function setSiteCustomization(db: DbOrTrx, siteId: string, customization: string | null): Promise<void> {
  await db.updateTable('sites').set({ customization, updated_at: nowIso() }).where('id', '=', siteId).execute();
}

export async function setSiteSpaceCustomization(
  db: DbOrTrx,
  siteSpaceId: string,
  customization: string | null,
): Promise<void> {
  await db
    .updateTable('site_spaces')
    .set({ customization, updated_at: nowIso() })
    .where('id', '=', siteSpaceId)
    .execute();
}
