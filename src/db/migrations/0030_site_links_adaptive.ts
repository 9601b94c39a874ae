/**
 * External links of a site's navigation (the official `SiteExternalLink`): at the top level of a
 * site with sections or in a section group, ordered with their siblings by `position` (the top level
 * shares one sequence with sections and groups, a group with its sections). And the adaptive
 * (visitor) schema of a site: one JSON schema per site, describing the claims its conditions read.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_external_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('localized_title', 'text')
    .addColumn('description', 'text')
    .addColumn('localized_description', 'text')
    .addColumn('icon', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('condition', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_external_links_site').on('site_external_links').columns(['site_id']).execute();

  await db.schema
    .createTable('site_adaptive_schemas')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('json_schema', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_adaptive_schemas').execute();
  await db.schema.dropTable('site_external_links').execute();
}
