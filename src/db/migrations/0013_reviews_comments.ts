/**
 * Reviews and comments: discussions on a space or inside a change request (replies are comments
 * with a parent), their emoji reactions, and the reviews of change requests, each tied to the
 * revision it was made on.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.references('change_requests.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('comments.id').onDelete('cascade'))
    .addColumn('review_id', 'text')
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text')
    .addColumn('node_id', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('mentions', 'text', (c) => c.notNull())
    .addColumn('posted_by', 'text', (c) => c.notNull())
    .addColumn('posted_at', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('resolved_at', 'text')
    .execute();
  // Lists: top-level comments of a space (change_request_id null) or of a change request, by date.
  await db.schema
    .createIndex('comments_thread')
    .on('comments')
    .columns(['space_id', 'change_request_id', 'parent_id', 'posted_at', 'id'])
    .execute();
  await db.schema.createIndex('comments_parent').on('comments').columns(['parent_id', 'posted_at', 'id']).execute();

  await db.schema
    .createTable('comment_reactions')
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('reacted_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['comment_id', 'user_id', 'emoji'])
    .execute();

  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('reviewer_id', 'text', (c) => c.notNull())
    .addColumn('requested_by', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('comment_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('change_request_reviews_list')
    .on('change_request_reviews')
    .columns(['change_request_id', 'created_at', 'id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['change_request_reviews', 'comment_reactions', 'comments']) {
    await db.schema.dropTable(table).execute();
  }
}
