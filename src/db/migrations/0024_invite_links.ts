/**
 * Invite links of an organization (`/orgs/{organizationId}/link-invites`). The official API names an
 * invite by its id and joins with that id, so the id is the link's secret: it is stored only as its
 * SHA-256 (`secret_hash`, looked up) and sealed (`sealed_secret`, AES-GCM, shown to the admins who
 * list the links); `ref` is the row's own reference (events name the invite by it, never by its
 * secret). A link grants `role` (null: guest) until `expires_at`, at most `max_uses` times.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('invite_links')
    .addColumn('ref', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('secret_hash', 'text', (c) => c.notNull().unique())
    .addColumn('sealed_secret', 'text', (c) => c.notNull())
    .addColumn('role', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text')
    .addColumn('max_uses', 'integer')
    .addColumn('uses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createIndex('invite_links_by_organization')
    .on('invite_links')
    .columns(['organization_id', 'created_at', 'ref'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('invite_links').execute();
}
