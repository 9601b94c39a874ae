/**
 * Content: immutable revisions of a space, their pages (content-addressed, shared between
 * revisions), documents and file bytes (content-addressed too), change requests and their
 * requested reviewers.
 *
 * A revision stores only the hashes of its top-level page versions; each page version stores the
 * hashes of its children (a Merkle tree), so an edit writes new rows for the edited page and its
 * ancestors only, and every unchanged subtree is shared with the parent revision.
 */
import type { Kysely } from 'kysely';
import { binaryType, dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('content_documents')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('links', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('page_versions')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('file_blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('bytes', binaryType(dialectOf(db)), (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('pages', 'text', (c) => c.notNull())
    .addColumn('files', 'text', (c) => c.notNull())
    .addColumn('reusable_contents', 'text', (c) => c.notNull())
    .addColumn('merged_from', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').columns(['space_id', 'created_at']).execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('subject', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    .addColumn('revision_merged', 'text')
    .addColumn('merged_by', 'text')
    .addColumn('merged_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('change_requests_number', ['space_id', 'number'])
    .execute();
  await db.schema
    .createIndex('change_requests_status')
    .on('change_requests')
    .columns(['space_id', 'status', 'updated_at', 'id'])
    .execute();

  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('requested_by', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of [
    'change_request_reviewers',
    'change_requests',
    'revisions',
    'file_blobs',
    'page_versions',
    'content_documents',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
