/**
 * Insight retention (`INSIGHTS_RETENTION_DAYS`) deletes the events of every site that occurred
 * before a cutoff, oldest first, in bounded batches (src/insights/repo.ts,
 * `deleteInsightEventsBefore`). The index of 0014 leads with `site_id`, so it cannot serve a range
 * of `occurred_at` alone: without this index each batch would scan the whole table (and, on SQLite,
 * hold the write lock while it does). The price is one more B-tree to keep up on every event
 * recorded. On PostgreSQL, building it on a large existing table blocks inserts of events until it
 * is done (the migration runs in a transaction, where `CREATE INDEX CONCURRENTLY` cannot).
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('site_insight_events_occurred').on('site_insight_events').column('occurred_at').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('site_insight_events_occurred').execute();
}
