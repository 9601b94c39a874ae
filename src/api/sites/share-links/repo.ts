import type { DbOrTrx } from '../../../core/service.js';
import type { SiteShareLinkRow } from '../../../db/schema.js';
import { newId, newSecret } from '../../../lib/ids.js';
import { type Page, paginate } from '../../../lib/paging.js';
import { nowIso } from '../../../lib/time.js';

export async function listShareLinks(
  db: DbOrTrx,
  siteId: string,
  options: { page?: string; limit?: number },
): Promise<Page<SiteShareLinkRow>> {
  return paginate(
    db.selectFrom('site_share_links').selectAll().where('site_id', '=', siteId),
    [
      { column: 'site_share_links.created_at', direction: 'asc', value: (r) => r.created_at },
      { column: 'site_share_links.id', direction: 'asc', value: (r) => r.id },
    ],
    options,
  );
}

export async function findShareLink(db: DbOrTrx, siteId: string, id: string): Promise<SiteShareLinkRow | undefined> {
  return db
    .selectFrom('site_share_links')
    .selectAll()
    .where('site_id', '=', siteId)
    .where('id', '=', id)
    .executeTakeFirst();
}

/** A new active link with a fresh secret key (144 random bits, URL-safe). */
export async function createShareLink(db: DbOrTrx, siteId: string, name: string): Promise<SiteShareLinkRow> {
  const row: SiteShareLinkRow = {
    id: newId(),
    site_id: siteId,
    name,
    key: newSecret(18),
    active: 1,
    created_at: nowIso(),
  };
  await db.insertInto('site_share_links').values(row).execute();
  return row;
}

export async function updateShareLink(
  db: DbOrTrx,
  id: string,
  patch: { name?: string; active?: boolean },
): Promise<void> {
  await db
    .updateTable('site_share_links')
    .set({
      ...(patch.name !== undefined ? { name: patch.name } : {}),
      ...(patch.active !== undefined ? { active: patch.active ? 1 : 0 } : {}),
    })
    .where('id', '=', id)
    .execute();
}

export async function deleteShareLink(db: DbOrTrx, id: string): Promise<void> {
  await db.deleteFrom('site_share_links').where('id', '=', id).execute();
}
