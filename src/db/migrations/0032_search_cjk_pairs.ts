/**
 * CJK search through an index: the pairs of letters each passage holds (`search_cjk_pairs`, written
 * with the passages by src/search/index.ts). A search for Chinese, Japanese or Korean text looks
 * for its pairs of letters (src/search/terms.ts `searchTerms`); two letters are too short for the
 * trigram indexes of 0025, so each such search scanned every passage of the searched spaces. One
 * table and one index on both databases; rows go with their passage (`on delete cascade`).
 *
 * Every space's index is then marked stale (its state row removed): the passages, and now their
 * pairs, are rebuilt on the next search from the live revision.
 */
import { type Kysely, sql } from 'kysely';
import { dialectOf } from '../dialect.js';

export async function up(db: Kysely<unknown>): Promise<void> {
  const passageId = dialectOf(db) === 'postgres' ? sql.raw('bigint') : sql.raw('integer');
  await sql`
    create table search_cjk_pairs (
      pair text not null,
      passage_id ${passageId} not null references search_passages (id) on delete cascade,
      primary key (pair, passage_id)
    )`.execute(db);
  // The cascade from a deleted passage looks its pairs up by passage.
  await sql`create index search_cjk_pairs_passage on search_cjk_pairs (passage_id)`.execute(db);
  await sql`delete from search_index_state`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`drop table if exists search_cjk_pairs`.execute(db);
}
