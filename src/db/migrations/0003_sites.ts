/**
 * Docs sites: sites, their site spaces, sections and section groups, redirects and share links.
 * Child rows go with their site (ON DELETE CASCADE); links between children (a site space's section,
 * a section's group, a redirect's destination) are maintained by the repositories, which move or
 * delete the dependants in the same transaction.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('basename', 'text', (c) => c.notNull())
    .addColumn('hostname', 'text')
    .addColumn('proxy', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('adaptive_content', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ads_status', 'text', (c) => c.notNull().defaultTo('pending'))
    .addColumn('customization', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sites_org_basename', ['organization_id', 'basename'])
    .execute();
  await db.schema
    .createIndex('sites_org_created')
    .on('sites')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('condition', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_sections_site_path', ['site_id', 'path'])
    .execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('section_id', 'text')
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('customization', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  // A path is unique within its section, or at the root (no section) of the site. NULLs are distinct
  // in unique indexes on both databases, hence the coalesce.
  await sql`create unique index site_spaces_path on site_spaces (site_id, coalesce(section_id, ''), path)`.execute(db);
  await db.schema.createIndex('site_spaces_space').on('site_spaces').columns(['space_id']).execute();

  await db.schema
    .createTable('site_redirects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('destination_kind', 'text', (c) => c.notNull())
    .addColumn('destination_id', 'text')
    .addColumn('destination_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_redirects_site_source', ['site_id', 'source'])
    .execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key', 'text', (c) => c.notNull().unique())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('site_share_links_site')
    .on('site_share_links')
    .columns(['site_id', 'created_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'site_share_links',
    'site_redirects',
    'site_spaces',
    'site_sections',
    'site_section_groups',
    'sites',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
