/**
 * The words and stems of each passage, stored with it (`search_passages.words`, `.stems`, written
 * by src/search/index.ts from src/search/terms.ts `textForms`): re-ranking a search's candidates
 * matched terms against every candidate's text by folding, splitting and stemming it on every query
 * (a tenth of the server's CPU under mixed traffic); it now searches these strings.
 *
 * Every space's index is then marked stale (its state row removed), as in 0025 and 0032: the
 * passages are rebuilt with their words on the next search from the live revision. Until then a
 * row without them is matched as before, from its text.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_passages add column words text`.execute(db);
  await sql`alter table search_passages add column stems text`.execute(db);
  await sql`delete from search_index_state`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await sql`alter table search_passages drop column stems`.execute(db);
  await sql`alter table search_passages drop column words`.execute(db);
}
