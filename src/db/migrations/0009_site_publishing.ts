/**
 * Visitor authentication of published sites: the key that signs visitors' JWTs (sealed at rest with
 * SECRETS_KEY) and where a visitor without a valid token is sent. One row per site, made when the
 * settings are first read or changed.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_publishing_auth')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('private_key', 'text', (c) => c.notNull())
    .addColumn('fallback_url', 'text')
    .addColumn('logout_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_publishing_auth').execute();
}
