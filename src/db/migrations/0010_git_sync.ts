/**
 * Git Sync: the state of each space's connection to a repository (the last operation, what it
 * did, how it ended) and the commit a revision was exported to or imported from, with the blob of
 * each page and file.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('git_sync')
    .addColumn('space_id', 'text', (c) => c.primaryKey())
    .addColumn('installation_id', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('repo_url', 'text', (c) => c.notNull())
    .addColumn('tree_url', 'text')
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text')
    .addColumn('operation_id', 'text', (c) => c.notNull())
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('state', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('ended_at', 'text')
    .addColumn('error', 'text')
    .addColumn('sealed_url', 'text')
    .addColumn('options', 'text', (c) => c.notNull())
    .addColumn('commit_oid', 'text')
    .addColumn('revision_id', 'text')
    .addColumn('change_request_id', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('revision_git')
    .addColumn('revision_id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('commit_oid', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('exported', 'integer', (c) => c.notNull())
    .addColumn('blobs', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('revision_git').execute();
  await db.schema.dropTable('git_sync').execute();
}
