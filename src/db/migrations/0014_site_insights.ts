/**
 * Site insights: the events a published site's visitors (or GitBook-style renderers, through
 * `trackEventsInSiteById`) record, kept one row each so `aggregateSiteEvents` can count them by any
 * stored dimension. The time parts the queries group by (ISO week start, day of week, hour of day)
 * are computed once when the event is stored, so grouping needs no date function of either database.
 */
import type { Kysely } from 'kysely';

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('site_insight_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('week_start', 'text', (c) => c.notNull())
    .addColumn('day_of_week', 'integer', (c) => c.notNull())
    .addColumn('hour_of_day', 'integer', (c) => c.notNull())
    .addColumn('session_id', 'text', (c) => c.notNull())
    .addColumn('visitor_id', 'text')
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('url_path', 'text', (c) => c.notNull())
    .addColumn('display_context', 'text', (c) => c.notNull())
    .addColumn('site_section_id', 'text')
    .addColumn('site_space_id', 'text')
    .addColumn('site_share_key', 'text')
    .addColumn('space_id', 'text')
    .addColumn('revision_id', 'text')
    .addColumn('page_id', 'text')
    .addColumn('feedback_rating', 'text')
    .addColumn('feedback_comment', 'text')
    .addColumn('data', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  // Every aggregation reads one site's events over a time range.
  await db.schema
    .createIndex('site_insight_events_site_time')
    .on('site_insight_events')
    .columns(['site_id', 'occurred_at'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_insight_events').execute();
}
