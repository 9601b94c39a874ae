/** What the partner ads review needs on a site: the submitted topic and contact, and the review result. */
import type { Kysely } from 'kysely';

const COLUMNS = ['ads_topic', 'ads_email', 'ads_zone_id', 'ads_reporting_id', 'ads_reason'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const column of COLUMNS) await db.schema.alterTable('sites').addColumn(column, 'text').execute();
  await db.schema.createIndex('sites_ads_status').on('sites').columns(['ads_status', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('sites_ads_status').execute();
  for (const column of COLUMNS) await db.schema.alterTable('sites').dropColumn(column).execute();
}
