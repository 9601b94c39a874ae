/**
 * Events: one index fewer to keep up on every insert. Event ids are version 7 UUIDs (time-ordered,
 * src/lib/ids.ts), so the primary key already orders events by time, and retention finds the
 * expired ones by a range of ids (src/events/repo.ts, `deleteEventsBefore`) instead of through
 * `events_created`. Each event recorded then writes to two indexes instead of three: on SQLite one
 * B-tree page fewer in the write-ahead log per event (4 → 3 pages, counting the table's), which is
 * most of what an event costs there (the log's pages are written again and synced at each
 * checkpoint); on PostgreSQL one index insertion and its WAL record fewer.
 *
 * Events recorded before ids were time-ordered have version 4 (random) ids, which an id range
 * cannot find by age: a partial index on `created_at` holds those rows only (the 15th character of
 * a UUID is its version), so retention still finds them, and new events never enter it.
 */
import { type Kysely, type SqlBool, sql } from 'kysely';

/**
 * The rows of `events_created_legacy`: ids that are not version 7 UUIDs. Retention's query repeats
 * this condition as written (a planner uses a partial index only for a condition it can match).
 */
const NOT_TIME_ORDERED = sql<SqlBool>`substr(id, 15, 1) <> '7'`;

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created').execute();
  await db.schema
    .createIndex('events_created_legacy')
    .on('events')
    .column('created_at')
    .where(NOT_TIME_ORDERED)
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('events_created_legacy').execute();
  await db.schema.createIndex('events_created').on('events').column('created_at').execute();
}
