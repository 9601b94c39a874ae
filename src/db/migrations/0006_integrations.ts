/** Integrations (published definitions, their images), organization and space installations. */
import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('integrations')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull())
    .addColumn('summary', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('target', 'text', (c) => c.notNull())
    .addColumn('verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('scopes', 'text', (c) => c.notNull())
    .addColumn('categories', 'text', (c) => c.notNull())
    .addColumn('blocks', 'text', (c) => c.notNull())
    .addColumn('content_sources', 'text', (c) => c.notNull())
    .addColumn('configurations', 'text', (c) => c.notNull())
    .addColumn('external_links', 'text', (c) => c.notNull())
    .addColumn('content_security_policy', 'text')
    .addColumn('script', 'text', (c) => c.notNull())
    .addColumn('secrets', 'text')
    .addColumn('has_blocks', 'integer', (c) => c.notNull())
    .addColumn('has_content_sources', 'integer', (c) => c.notNull())
    .addColumn('block_urls', 'text', (c) => c.notNull())
    .addColumn('preview_count', 'integer', (c) => c.notNull())
    .addColumn('has_icon', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('integrations_owner').on('integrations').columns(['organization_id', 'name']).execute();
  await db.schema.createIndex('integrations_visibility').on('integrations').columns(['visibility', 'name']).execute();

  await db.schema
    .createTable('integration_images')
    .addColumn('integration_name', 'text', (c) => c.notNull().references('integrations.name').onDelete('cascade'))
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('data', binaryType(dialectOf(db)), (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_images_pk', ['integration_name', 'slot'])
    .execute();

  await db.schema
    .createTable('integration_installations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('integration_name', 'text', (c) => c.notNull().references('integrations.name').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('configuration', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('integration_installations_org', ['integration_name', 'organization_id'])
    .execute();

  await db.schema
    .createTable('integration_space_installations')
    .addColumn('installation_id', 'text', (c) =>
      c.notNull().references('integration_installations.id').onDelete('cascade'),
    )
    .addColumn('integration_name', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('configuration', 'text', (c) => c.notNull().defaultTo('{}'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('integration_space_installations_pk', ['installation_id', 'space_id'])
    .execute();
  await db.schema
    .createIndex('integration_space_installations_space')
    .on('integration_space_installations')
    .columns(['space_id', 'integration_name'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'integration_space_installations',
    'integration_installations',
    'integration_images',
    'integrations',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
