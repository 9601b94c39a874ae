/** Collections, spaces, and the user/team grants on them; organizations' merge rules. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('merge_rules', 'text').execute();

  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text', (c) => c.notNull().defaultTo('inherit'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('collections_org').on('collections').columns(['organization_id', 'parent_id']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text')
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('edit_mode', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('icon_url', 'text')
    .addColumn('merge_rules', 'text')
    .addColumn('default_level', 'text', (c) => c.notNull().defaultTo('inherit'))
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema
    .createIndex('spaces_org_created')
    .on('spaces')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
  await db.schema.createIndex('spaces_parent').on('spaces').columns(['parent_id', 'position']).execute();

  await db.schema
    .createTable('content_permissions')
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('target_type', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('principal_type', 'text', (c) => c.notNull())
    .addColumn('principal_id', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('content_permissions_pk', ['target_type', 'target_id', 'principal_type', 'principal_id'])
    .execute();
  await db.schema
    .createIndex('content_permissions_principal')
    .on('content_permissions')
    .columns(['organization_id', 'principal_type', 'principal_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['content_permissions', 'spaces', 'collections']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('organizations').dropColumn('merge_rules').execute();
}
