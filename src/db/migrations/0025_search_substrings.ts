/**
 * Search inside words and in text without spaces, beside the word index of 0007 (one index, two
 * ways in; see src/search/):
 *
 * - PostgreSQL: the `pg_trgm` extension and a trigram GIN index over a passage's text (title, heading
 *   and body joined by spaces, the expression src/search/ queries with `ilike`). As in 0015, where
 *   the extension cannot be created (not installed, no privilege) the migration goes on without the
 *   index, and substring search scans the searched spaces' passages instead.
 * - SQLite: an FTS5 table `search_trigram` (`trigram` tokenizer, case and diacritics folded) over the
 *   same three columns of `search_passages`, kept in step by triggers as `search_fts` is, and filled
 *   from the passages already indexed.
 *
 * Every space's index is then marked stale (its state row removed): the passages are rebuilt on the
 * next search from the live revision, now with the reusable contents each page includes.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';
import { tryCreateExtension } from './0015_member_search.js';

const TRIGGERS = ['search_passages_trigram_ai', 'search_passages_trigram_ad', 'search_passages_trigram_au'];

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await tryCreateExtension(db, 'pg_trgm');
    // Installed by us or beforehand (e.g. by a superuser, in a schema on the search path).
    const installed = await sql<{ n: number }>`
      select count(*)::int as n from pg_opclass where opcname = 'gin_trgm_ops' and pg_opclass_is_visible(oid)`.execute(
      db,
    );
    if ((installed.rows[0]?.n ?? 0) > 0) {
      await sql`
      create index search_passages_trgm on search_passages
      using gin ((page_title || ' ' || coalesce(heading, '') || ' ' || body) gin_trgm_ops)`.execute(db);
    }
  } else {
    await sql`
      create virtual table search_trigram using fts5(
        page_title, heading, body,
        content = 'search_passages', content_rowid = 'id',
        tokenize = 'trigram remove_diacritics 1'
      )`.execute(db);
    await sql`
      create trigger search_passages_trigram_ai after insert on search_passages begin
        insert into search_trigram (rowid, page_title, heading, body)
        values (new.id, new.page_title, coalesce(new.heading, ''), new.body);
      end`.execute(db);
    await sql`
      create trigger search_passages_trigram_ad after delete on search_passages begin
        insert into search_trigram (search_trigram, rowid, page_title, heading, body)
        values ('delete', old.id, old.page_title, coalesce(old.heading, ''), old.body);
      end`.execute(db);
    await sql`
      create trigger search_passages_trigram_au after update on search_passages begin
        insert into search_trigram (search_trigram, rowid, page_title, heading, body)
        values ('delete', old.id, old.page_title, coalesce(old.heading, ''), old.body);
        insert into search_trigram (rowid, page_title, heading, body)
        values (new.id, new.page_title, coalesce(new.heading, ''), new.body);
      end`.execute(db);
    await sql`insert into search_trigram (search_trigram) values ('rebuild')`.execute(db);
  }
  await sql`delete from search_index_state`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) === 'postgres') {
    await sql`drop index if exists search_passages_trgm`.execute(db);
    return;
  }
  for (const trigger of TRIGGERS) await sql`drop trigger if exists ${sql.raw(trigger)}`.execute(db);
  await sql`drop table if exists search_trigram`.execute(db);
}
