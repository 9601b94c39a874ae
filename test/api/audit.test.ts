/** The organization audit log through HTTP: official shapes, filters, paging, admins only, retention. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deleteEventsBefore } from '../../src/events/repo.js';
import { purgeExpiredEvents } from '../../src/events/retention.js';
import { EVENT_TYPES } from '../../src/events/types.js';
import { createHarness, type Harness } from '../helpers/app.js';
import { freshDatabase } from '../helpers/fresh-db.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => {
  await h?.close();
});

/** An organization with a few recorded changes (webhook changes are recorded like any other). */
async function orgWithEvents() {
  const { id: org, admin } = await h.org();
  const base = `/v1/orgs/${org}/webhooks`;
  const a = (await admin.client.post(base, { url: 'https://a.example.test/', events: ['*'] })).body;
  const b = (await admin.client.post(base, { url: 'https://b.example.test/', events: ['*'] })).body;
  await admin.client.patch(`${base}/${a.id}`, { description: 'first' });
  await admin.client.delete(`${base}/${b.id}`);
  return { org, admin, a, b };
}

const DAY = 86_400_000;

/**
 * An event as recorded before ids were time-ordered: a random (version 4) `id`, `ageDays` old. Ids
 * like 00000000-… and ffffffff-… sort on either side of any time-ordered id of today, so the id
 * range cannot find them.
 */
function legacyEvent(organizationId: string, id: string, ageDays: number) {
  return {
    id,
    organization_id: organizationId,
    type: 'organization.updated',
    actor_type: 'system',
    actor_id: null,
    actor_label: null,
    token_id: null,
    source: 'system',
    target_object: 'organization',
    target_id: organizationId,
    target_label: null,
    data: '{}',
    created_at: new Date(Date.now() - ageDays * DAY).toISOString(),
  };
}

describe('audit log', () => {
  it('lists events newest first in the official shape, and gets one with its payload', async () => {
    const { org, admin, a, b } = await orgWithEvents();
    const res = await admin.client.get(`/v1/orgs/${org}/audit-events`);
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(4);
    expect(res.body.items.map((e: { action: string }) => e.action)).toEqual([
      'webhook.deleted',
      'webhook.updated',
      'webhook.created',
      'webhook.created',
    ]);
    const [deleted] = res.body.items;
    expect(deleted).toEqual({
      object: 'audit-event',
      id: expect.stringMatching(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/),
      occurredAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      action: 'webhook.deleted',
      actor: { type: 'user', id: admin.user.id, label: admin.user.display_name },
      source: 'api',
      target: { type: 'webhook', id: b.id, label: 'https://b.example.test/' },
      urls: { location: `http://bindery.test/v1/orgs/${org}/audit-events/${deleted.id}` },
    });

    const updated = res.body.items[1];
    const one = await admin.client.get(`/v1/orgs/${org}/audit-events/${updated.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toMatchObject({ ...updated, schemaVersion: 1 });
    expect(one.body.payload).toMatchObject({
      object: { object: 'webhook', id: a.id, description: 'first' },
      previous: { description: null },
    });
    expect(one.body.payload.object.secret).toBeUndefined();
    expect((await admin.client.get(`/v1/orgs/${org}/audit-events/${crypto.randomUUID()}`)).status).toBe(404);
  });

  it('filters by action, actor, target and time, and pages', async () => {
    const { org, admin, a } = await orgWithEvents();
    const list = async (query: string) => {
      const res = await admin.client.get(`/v1/orgs/${org}/audit-events?${query}`);
      expect(res.status, query).toBe(200);
      return res.body;
    };
    expect((await list('action=webhook.created')).count).toBe(2);
    expect((await list('action=webhook.nothing')).items).toEqual([]);
    expect((await list(`actor=${admin.user.id}`)).count).toBe(4);
    expect((await list('actor=someone-else')).count).toBe(0);
    const onA = await list(`target=${a.id}`);
    expect(onA.items.map((e: { action: string }) => e.action)).toEqual(['webhook.updated', 'webhook.created']);

    const all = (await list('')).items;
    const oldest = all[3].occurredAt;
    const newest = all[0].occurredAt;
    expect((await list(`from=${encodeURIComponent(newest)}`)).count).toBe(1);
    expect((await list(`to=${encodeURIComponent(oldest)}`)).count).toBe(1);
    expect((await list(`from=${encodeURIComponent(oldest)}&to=${encodeURIComponent(newest)}`)).count).toBe(4);

    const first = await list('limit=3');
    expect(first.items).toHaveLength(3);
    expect(first.count).toBe(4);
    const second = await list(`limit=3&page=${first.next.page}`);
    expect(second.items.map((e: { id: string }) => e.id)).toEqual([all[3].id]);
    expect(second.next).toBeUndefined();
    // The default page is 20.
    for (let i = 0; i < 20; i++) await admin.client.patch(`/v1/orgs/${org}/webhooks/${a.id}`, { description: `v${i}` });
    const page = await list('');
    expect(page.items).toHaveLength(20);
    expect(page.count).toBe(24);
    expect(page.next).toBeDefined();
  });

  it('refuses bad filters and paging', async () => {
    const { id: org, admin } = await h.org();
    for (const query of ['limit=0', 'limit=101', 'from=yesterday', 'to=2026-13-01', 'page=garbage']) {
      const res = await admin.client.get(`/v1/orgs/${org}/audit-events?${query}`);
      expect(res.status, query).toBe(400);
    }
    expect((await admin.client.get(`/v1/orgs/${org}/audit-events?limit=100`)).status).toBe(200);
  });

  it('lists the actions with labels', async () => {
    const { id: org, admin } = await h.org();
    const res = await admin.client.get(`/v1/orgs/${org}/audit-event-actions`);
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(Object.keys(EVENT_TYPES).length);
    expect(res.body.items).toContainEqual({
      object: 'audit-event-action',
      id: 'space.created',
      label: 'Space created',
    });
  });

  it('is for org admins: 404 to outsiders, 403 to other members', async () => {
    const { org } = await orgWithEvents();
    const outsider = await h.user();
    const creator = await h.member(org, 'create');
    const admin = await h.member(org, 'admin');
    const event = (await admin.client.get(`/v1/orgs/${org}/audit-events`)).body.items[0];
    for (const path of ['audit-events', `audit-events/${event.id}`, 'audit-event-actions']) {
      expect((await outsider.client.get(`/v1/orgs/${org}/${path}`)).status, path).toBe(404);
      const res = await creator.client.get(`/v1/orgs/${org}/${path}`);
      expect(res.status, path).toBe(403);
      expect(res.body.error.message).toMatch(/admin role/);
    }
    // Another organization's event is not found through this one.
    const other = await h.org();
    expect((await other.admin.client.get(`/v1/orgs/${other.id}/audit-events/${event.id}`)).status).toBe(404);
  });

  it('forgets events past the retention period', async () => {
    // Purging deletes across the whole database: on a database of this test's own.
    const database = await freshDatabase('retention');
    const own = await createHarness({ ownDatabase: database.url });
    try {
      const { id: org, admin } = await own.org();
      await admin.client.post(`/v1/orgs/${org}/webhooks`, { url: 'https://a.example.test/', events: ['*'] });
      const [event] = (await admin.client.get(`/v1/orgs/${org}/audit-events`)).body.items;
      // Nothing is a day old yet.
      expect(await purgeExpiredEvents(own.db, 1)).toBe(0);
      expect((await admin.client.get(`/v1/orgs/${org}/audit-events/${event.id}`)).status).toBe(200);
      // Two days from now, a one-day retention has expired it (and its deliveries with it).
      expect(await purgeExpiredEvents(own.db, 1, { now: Date.now() + 2 * 86_400_000 })).toBe(1);
      expect((await admin.client.get(`/v1/orgs/${org}/audit-events/${event.id}`)).status).toBe(404);
      expect((await admin.client.get(`/v1/orgs/${org}/audit-events`)).body.count).toBe(0);
    } finally {
      await own.close();
      await database.drop();
    }
  });

  it('forgets events with random (version 4) ids, recorded before ids were time-ordered, by their date', async () => {
    const database = await freshDatabase('retention-legacy');
    const own = await createHarness({ ownDatabase: database.url });
    try {
      const { id: org, admin } = await own.org();
      const legacy = (id: string, ageDays: number) => legacyEvent(org, id, ageDays);
      await own.db
        .insertInto('events')
        .values([
          legacy('ffffffff-0000-4000-8000-000000000001', 3),
          legacy('00000000-0000-4000-8000-000000000002', 3),
          legacy('ffffffff-0000-4000-8000-000000000003', 0),
          legacy('00000000-0000-4000-8000-000000000004', 0),
        ])
        .execute();
      await admin.client.patch(`/v1/orgs/${org}`, { title: 'Renamed' }); // one event recorded now
      expect(await purgeExpiredEvents(own.db, 1)).toBe(2);
      const left = await own.db.selectFrom('events').select('id').where('organization_id', '=', org).execute();
      const v7 = (id: string) => id[14] === '7';
      expect(
        left
          .map((e) => e.id)
          .filter((id) => !v7(id))
          .sort(),
      ).toEqual(['00000000-0000-4000-8000-000000000004', 'ffffffff-0000-4000-8000-000000000003']);
      expect(left.some((e) => v7(e.id))).toBe(true);
      // Two days from now, all of them have expired.
      expect(await purgeExpiredEvents(own.db, 1, { now: Date.now() + 2 * DAY })).toBe(left.length);
    } finally {
      await own.close();
      await database.drop();
    }
  });
  it('purges in batches: time-ordered ids first, the rest of a batch from older ids, stopping when the app closes', async () => {
    const database = await freshDatabase('retention-batches');
    const own = await createHarness({ ownDatabase: database.url });
    try {
      const { id: org, admin } = await own.org();
      for (const title of ['One', 'Two', 'Three']) await admin.client.patch(`/v1/orgs/${org}`, { title });
      await own.db
        .insertInto('events')
        .values([1, 2, 3].map((n) => legacyEvent(org, `00000000-0000-4000-8000-00000000000${n}`, 3)))
        .execute();
      const stored = async () => (await own.db.selectFrom('events').select('id').execute()).map((e) => e.id);
      const all = await stored();
      const timeOrdered = all.filter((id) => id[14] === '7').length;
      expect(timeOrdered).toBeGreaterThanOrEqual(3);
      // Two days from now everything has expired (a one-day retention).
      const now = Date.now() + 2 * DAY;
      const before = new Date(now - DAY).toISOString();
      // One batch: every time-ordered event, then one older one with what the batch has left.
      expect(await deleteEventsBefore(own.db, before, timeOrdered + 1)).toBe(timeOrdered + 1);
      expect((await stored()).sort()).toEqual([
        '00000000-0000-4000-8000-000000000002',
        '00000000-0000-4000-8000-000000000003',
      ]);
      // A purge whose app is closing stops after its first batch.
      const closing = new AbortController();
      closing.abort();
      expect(await purgeExpiredEvents(own.db, 1, { now, batchSize: 1, signal: closing.signal })).toBe(1);
      expect(await stored()).toHaveLength(1);
      // Otherwise it goes on, batch after batch, until none is left.
      await own.db
        .insertInto('events')
        .values([4, 5, 6].map((n) => legacyEvent(org, `00000000-0000-4000-8000-00000000000${n}`, 3)))
        .execute();
      expect(await purgeExpiredEvents(own.db, 1, { now, batchSize: 2 })).toBe(4);
      expect(await stored()).toEqual([]);
    } finally {
      await own.close();
      await database.drop();
    }
  });
});
