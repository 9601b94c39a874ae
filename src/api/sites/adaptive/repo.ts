/** The stored adaptive schema of a site (table `site_adaptive_schemas`, migration 0030). */
import type { DbOrTrx } from '../../../core/service.js';
import type { SiteAdaptiveSchemaRow } from '../../../db/schema.js';

export function findAdaptiveSchema(db: DbOrTrx, siteId: string): Promise<SiteAdaptiveSchemaRow | undefined> {
  return db.selectFrom('site_adaptive_schemas').selectAll().where('site_id', '=', siteId).executeTakeFirst();
}

/** Stores `row`, replacing the site's schema if it had one. */
export async function putAdaptiveSchema(db: DbOrTrx, row: SiteAdaptiveSchemaRow): Promise<void> {
  await db
    .insertInto('site_adaptive_schemas')
    .values(row)
    .onConflict((oc) => oc.column('site_id').doUpdateSet({ json_schema: row.json_schema, updated_at: row.updated_at }))
    .execute();
}
