/**
 * Uploads through signed URLs and translation runs.
 *
 * `storage_uploads`: one row per URL `generateStorageUploadURL` made: who asked, in which
 * organization, the declared file (name, type, size: the limit the upload is held to) and when the
 * URL expires. One PUT fills `blob_hash` (the bytes live in `file_blobs`, src/storage/files.ts),
 * `size` and `uploaded_at`; a row with `uploaded_at` set takes no other PUT. A change request's
 * `insert_files` names the row by its id (`storageKey`).
 *
 * Translation settings gain the official `TranslationSource` (`source_space_id`,
 * `source_language`), the last run's `status` (official TranslationStatus; null: never run) and its
 * `stats` (JSON of the official `Translation.stats`), why the last run failed (`last_error`) and the
 * job of the current run (`job_id`). `translation_results` keeps, per target language, the space
 * the translation writes to (made by the first run), the revision the last run produced (the
 * official `TranslationResult`) and the change request a run writes through (kept until merged, so
 * a run interrupted and run again reuses it).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_uploads')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size_limit', 'integer', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('blob_hash', 'text')
    .addColumn('size', 'integer')
    .addColumn('uploaded_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('translation_settings').addColumn('source_space_id', 'text').execute();
  await db.schema.alterTable('translation_settings').addColumn('source_language', 'text').execute();
  await db.schema.alterTable('translation_settings').addColumn('status', 'text').execute();
  await db.schema.alterTable('translation_settings').addColumn('stats', 'text').execute();
  await db.schema.alterTable('translation_settings').addColumn('last_error', 'text').execute();
  await db.schema.alterTable('translation_settings').addColumn('job_id', 'text').execute();
  await db.schema
    .createTable('translation_results')
    .addColumn('translation_id', 'text', (c) => c.notNull().references('translation_settings.id').onDelete('cascade'))
    .addColumn('language', 'text', (c) => c.notNull())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text')
    .addColumn('change_request_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_results_pk', ['translation_id', 'language'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('translation_results').execute();
  for (const column of ['job_id', 'last_error', 'stats', 'status', 'source_language', 'source_space_id']) {
    await db.schema.alterTable('translation_settings').dropColumn(column).execute();
  }
  await db.schema.dropTable('storage_uploads').execute();
}
