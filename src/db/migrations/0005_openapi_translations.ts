/** The durable job queue, OpenAPI specifications with their versions, and translation settings. */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  // Background work kept in the database, so it survives restarts and is shared by every process.
  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  // Claiming looks for queued jobs that are due and running jobs whose lease ran out.
  await db.schema.createIndex('jobs_state_run_at').on('jobs').columns(['state', 'run_at']).execute();
  await db.schema.createIndex('jobs_state_locked_until').on('jobs').columns(['state', 'locked_until']).execute();

  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    .addColumn('source_url', 'text')
    .addColumn('source_text', 'text')
    .addColumn('source_revision', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('processing_state', 'text', (c) => c.notNull())
    .addColumn('last_version_id', 'text')
    .addColumn('last_processed_at', 'text')
    .addColumn('last_process_error_code', 'text')
    .addColumn('last_process_errors', 'text')
    .addColumn('last_process_error_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('openapi_specs_org_slug', ['organization_id', 'slug'])
    .execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spec_id', 'text', (c) => c.notNull().references('openapi_specs.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('url', 'text')
    .addColumn('filesystem', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    // Also the keyset index of the versions list (newest first).
    .addUniqueConstraint('openapi_spec_versions_spec_number', ['spec_id', 'number'])
    .execute();

  await db.schema
    .createTable('translation_settings')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('translation_settings_org_created')
    .on('translation_settings')
    .columns(['organization_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['translation_settings', 'openapi_spec_versions', 'openapi_specs', 'jobs']) {
    await db.schema.dropTable(table).execute();
  }
}
