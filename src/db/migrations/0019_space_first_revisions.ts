/**
 * Every space has a row for its first (empty) revision. Spaces used to get it the first time their
 * content was read, so a read could write; space creation now stores it in the same transaction, and
 * this gives the spaces made before that (and never read since) theirs. Likewise the search index
 * of a space still at that empty revision: it has no passages, and is now recorded at creation.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    insert into revisions
      (id, space_id, parents, type, pages, files, reusable_contents, merged_from, created_by, created_at)
    select s.revision_id, s.id, '[]', 'edits', '[]', '[]', '[]', null, null, s.created_at
    from spaces s
    where not exists (select 1 from revisions r where r.id = s.revision_id)
  `.execute(db);
  await sql`
    insert into search_index_state (space_id, revision_id, indexed_at)
    select s.id, s.revision_id, s.created_at
    from spaces s
    join revisions r on r.id = s.revision_id
    where r.pages = '[]' and r.files = '[]' and r.reusable_contents = '[]'
      and not exists (select 1 from search_index_state i where i.space_id = s.id)
  `.execute(db);
}

export async function down(): Promise<void> {
  // The rows are the spaces' live content: nothing to undo.
}
