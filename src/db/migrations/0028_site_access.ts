/**
 * Custom hostnames a site claims through the API (`custom_hostnames`), each verified by a DNS TXT
 * record before it is served: one claim per site; several organizations may claim a hostname while it
 * is pending (so that nobody can block its owner by claiming it first), but only one claim of a
 * hostname is ever verified (the partial unique index). A verified claim's hostname is also the
 * site's `sites.hostname`, which is what published sites are served on (src/published/model.ts).
 * Hostnames are stored lower-case.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('custom_hostnames')
    .addColumn('site_id', 'text', (c) => c.primaryKey().references('sites.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('hostname', 'text', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('verified_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_hostnames_hostname').on('custom_hostnames').column('hostname').execute();
  await db.schema
    .createIndex('custom_hostnames_verified')
    .unique()
    .on('custom_hostnames')
    .column('hostname')
    .where(sql.ref('verified_at'), 'is not', null)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('custom_hostnames').execute();
}
