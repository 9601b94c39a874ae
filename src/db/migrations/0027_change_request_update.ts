/**
 * - `change_requests.revision_merged_ancestor`: the live revision a change request was last brought
 *   up to date with (`POST …/update`), the official `revisionMergedAncestor`. Null until the first
 *   update; the change request's base (what its changes, its merge and "outdated" count from) is
 *   this revision when set, else `revision_initial`.
 * - `openapi_specs.visibility`: `private` (the default) or `public`.
 * - `openapi_spec_versions.raw_text` / `raw_format`: the entry document exactly as submitted or
 *   fetched (`json` or `yaml`); null for versions stored before, which have no raw source.
 */
import { type Kysely, sql } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('change_requests').addColumn('revision_merged_ancestor', 'text').execute();
  await db.schema
    .alterTable('openapi_specs')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo(sql`'private'`))
    .execute();
  await db.schema.alterTable('openapi_spec_versions').addColumn('raw_text', 'text').execute();
  await db.schema.alterTable('openapi_spec_versions').addColumn('raw_format', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('openapi_spec_versions').dropColumn('raw_format').execute();
  await db.schema.alterTable('openapi_spec_versions').dropColumn('raw_text').execute();
  await db.schema.alterTable('openapi_specs').dropColumn('visibility').execute();
  await db.schema.alterTable('change_requests').dropColumn('revision_merged_ancestor').execute();
}
