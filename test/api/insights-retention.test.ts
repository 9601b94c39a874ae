/**
 * Insight retention (`INSIGHTS_RETENTION_DAYS`): the purge deletes events that occurred before the
 * cutoff and keeps the rest (at the edge: one millisecond either side), goes through a backlog in
 * bounded batches, stops between batches when the app closes, and runs by itself in a process with
 * a job worker; what it deleted no longer counts in `aggregateSiteEvents`.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { SiteInsightEventsTable } from '../../src/db/schema.js';
import { deleteInsightEventsBefore } from '../../src/insights/repo.js';
import { purgeExpiredInsightEvents } from '../../src/insights/retention.js';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

const DAY = 86_400_000;

// The purge deletes the events of every site: on a database of this file's own.
let database: FreshDatabase;
let h: Harness;
let w: PublishedWorld;
beforeAll(async () => {
  database = await freshDatabase('insights-retention');
  h = await createHarness({ ownDatabase: database.url });
  w = await publishedWorld(h);
}, 120_000);
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
beforeEach(async () => {
  await h.db.deleteFrom('site_insight_events').execute();
});

/** A stored page view of the test site that occurred at `at` (ms), as `recordSiteEvents` stores one. */
function row(at: number): SiteInsightEventsTable {
  const iso = new Date(at).toISOString();
  return {
    id: newId(),
    site_id: w.siteId,
    type: 'page_view',
    occurred_at: iso,
    week_start: iso,
    day_of_week: 1,
    hour_of_day: 0,
    session_id: 's1',
    visitor_id: 'v1',
    url: 'https://docs.example.test/',
    url_path: '/',
    display_context: 'site',
    site_section_id: null,
    site_space_id: null,
    site_share_key: null,
    space_id: null,
    revision_id: null,
    page_id: null,
    feedback_rating: null,
    feedback_comment: null,
    data: '{}',
    created_at: iso,
  };
}

async function store(times: number[]): Promise<void> {
  await h.db
    .insertInto('site_insight_events')
    .values(times.map((at) => row(at)))
    .execute();
}

/** When the stored events occurred, oldest first. */
async function remaining(): Promise<string[]> {
  const rows = await h.db.selectFrom('site_insight_events').select('occurred_at').orderBy('occurred_at').execute();
  return rows.map((r) => r.occurred_at);
}

const iso = (ms: number) => new Date(ms).toISOString();
const now = Date.parse('2025-06-15T12:00:00.000Z');
const cutoff = now - 30 * DAY;

describe('insight retention', () => {
  it('deletes the events older than the retention and keeps the others, to the millisecond', async () => {
    await store([cutoff - 400 * DAY, cutoff - 1, cutoff, cutoff + 1, now]);
    expect(await purgeExpiredInsightEvents(h.db, 30, { now })).toBe(2);
    // Exactly at the cutoff is not older than the retention: kept.
    expect(await remaining()).toEqual([iso(cutoff), iso(cutoff + 1), iso(now)]);
    // Nothing more to do a moment later.
    expect(await purgeExpiredInsightEvents(h.db, 30, { now })).toBe(0);
    // A millisecond later, the event at the old cutoff has expired too.
    expect(await purgeExpiredInsightEvents(h.db, 30, { now: now + 1 })).toBe(1);
    expect(await remaining()).toEqual([iso(cutoff + 1), iso(now)]);
  });

  it('one statement deletes at most its batch, the oldest first', async () => {
    await store([1, 2, 3, 4, 5].map((d) => cutoff - d * DAY));
    expect(await deleteInsightEventsBefore(h.db, iso(cutoff), 2)).toBe(2);
    expect(await remaining()).toEqual([3, 2, 1].map((d) => iso(cutoff - d * DAY)));
  });

  it('goes through a backlog in several batches until none is left', async () => {
    const expired = Array.from({ length: 7 }, (_, i) => cutoff - (i + 1) * 3_600_000);
    await store([...expired, cutoff + 1, now - 1]);
    // 7 expired events in batches of 3: 3, 3, then 1.
    expect(await purgeExpiredInsightEvents(h.db, 30, { now, batchSize: 3 })).toBe(7);
    expect(await remaining()).toEqual([iso(cutoff + 1), iso(now - 1)]);
    // A backlog that is an exact multiple of the batch ends with an empty batch.
    await store(expired.slice(0, 6));
    expect(await purgeExpiredInsightEvents(h.db, 30, { now, batchSize: 3 })).toBe(6);
    expect(await remaining()).toEqual([iso(cutoff + 1), iso(now - 1)]);
  });

  it('stops between batches once its signal is aborted (the app is closing)', async () => {
    await store(Array.from({ length: 7 }, (_, i) => cutoff - (i + 1) * DAY));
    const closing = new AbortController();
    closing.abort();
    expect(await purgeExpiredInsightEvents(h.db, 30, { now, batchSize: 3, signal: closing.signal })).toBe(3);
    expect(await remaining()).toHaveLength(4);
  });

  it('purged events no longer count in aggregateSiteEvents', async () => {
    const aggregate = (query: unknown) => w.admin.client.post(`${w.api}/insights/events/aggregate`, query);
    const count = async () => {
      const res = await aggregate({ range: 'lastYear', select: [{ column: 'eventsCount' }] });
      expect(res.status).toBe(200);
      return res.body.columns[0].values[0];
    };
    const tracked = await w.admin.client.post(`${w.api}/insights/events`, {
      events: [1, 2].map((n) => ({
        type: 'page_view',
        session: {
          sessionId: `s${n}`,
          visitorId: 'v1',
          cookies: {},
          userAgent: 'test',
          language: 'en',
          referrer: null,
        },
        location: {
          url: 'https://docs.example.test/',
          siteSection: null,
          siteSpace: null,
          siteShareKey: null,
          space: null,
          revision: null,
          page: null,
        },
      })),
    });
    expect(tracked.status).toBe(204);
    // Three events from 40 to 60 days ago: inside the last year, outside a 30-day retention.
    await store([40, 50, 60].map((d) => Date.now() - d * DAY));
    expect(await count()).toBe(5);
    expect(await purgeExpiredInsightEvents(h.db, 30)).toBe(3);
    expect(await count()).toBe(2);
  });

  it('runs by itself when a process with a job worker becomes ready, and not in others', async () => {
    await store([Date.now() - 40 * DAY, Date.now() - 31 * DAY, Date.now() - DAY]);
    // This file's harness has no job worker: opening another one without a worker purges nothing.
    const apiOnly = await createHarness({ ownDatabase: database.url, insightsRetentionDays: 30 });
    await apiOnly.close();
    expect(await remaining()).toHaveLength(3);
    const worker = await createHarness({ ownDatabase: database.url, jobConcurrency: 1, insightsRetentionDays: 30 });
    try {
      await expect.poll(async () => (await remaining()).length, { timeout: 10_000 }).toBe(1);
    } finally {
      await worker.close();
    }
  });
});
