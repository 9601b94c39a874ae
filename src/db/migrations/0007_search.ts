/**
 * Full-text search over the live content of spaces, for AI answers (src/search/).
 *
 * `search_passages` holds one row per section of a page of a space's live revision (a section runs
 * from a heading to the next heading; the text before the first heading is the page's opening
 * section). `search_index_state` says which revision of each space the passages were built from.
 *
 * - PostgreSQL: a generated `tsvector` column (English configuration, page title weighted A, heading
 *   B, body C) with a GIN index; queries rank with `ts_rank`.
 * - SQLite: an FTS5 table over the same three columns (`porter unicode61` tokenizer, diacritics
 *   removed) kept in step with `search_passages` by triggers (external content); queries rank with
 *   `bm25`.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const postgres = dialectOf(db) === 'postgres';
  await db.schema
    .createTable('search_passages')
    .addColumn('id', postgres ? 'bigserial' : 'integer', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('page_title', 'text', (c) => c.notNull())
    .addColumn('page_path', 'text', (c) => c.notNull())
    .addColumn('section', 'integer', (c) => c.notNull())
    .addColumn('anchor', 'text')
    .addColumn('heading', 'text')
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('search_passages_space').on('search_passages').columns(['space_id', 'page_id']).execute();

  await db.schema
    .createTable('search_index_state')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('indexed_at', 'text', (c) => c.notNull())
    .execute();

  if (postgres) {
    await sql`
      alter table search_passages add column tsv tsvector generated always as (
        setweight(to_tsvector('english', page_title), 'A') ||
        setweight(to_tsvector('english', coalesce(heading, '')), 'B') ||
        setweight(to_tsvector('english', body), 'C')
      ) stored`.execute(db);
    await sql`create index search_passages_tsv on search_passages using gin (tsv)`.execute(db);
    return;
  }
  await sql`
    create virtual table search_fts using fts5(
      page_title, heading, body,
      content = 'search_passages', content_rowid = 'id',
      tokenize = 'porter unicode61 remove_diacritics 2'
    )`.execute(db);
  await sql`
    create trigger search_passages_ai after insert on search_passages begin
      insert into search_fts (rowid, page_title, heading, body)
      values (new.id, new.page_title, coalesce(new.heading, ''), new.body);
    end`.execute(db);
  await sql`
    create trigger search_passages_ad after delete on search_passages begin
      insert into search_fts (search_fts, rowid, page_title, heading, body)
      values ('delete', old.id, old.page_title, coalesce(old.heading, ''), old.body);
    end`.execute(db);
  await sql`
    create trigger search_passages_au after update on search_passages begin
      insert into search_fts (search_fts, rowid, page_title, heading, body)
      values ('delete', old.id, old.page_title, coalesce(old.heading, ''), old.body);
      insert into search_fts (rowid, page_title, heading, body)
      values (new.id, new.page_title, coalesce(new.heading, ''), new.body);
    end`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'sqlite') {
    for (const trigger of ['search_passages_ai', 'search_passages_ad', 'search_passages_au']) {
      await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
    }
    await sql`drop table if exists search_fts`.execute(db);
  }
  await db.schema.dropTable('search_index_state').execute();
  await db.schema.dropTable('search_passages').execute();
}
