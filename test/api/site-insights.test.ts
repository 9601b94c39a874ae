/**
 * Site insights through HTTP: `trackEventsInSiteById` (validation, limits at their edges, who may
 * track, unpublished sites) and `aggregateSiteEvents` (counts by rating, page, event type, time;
 * range and where filters; sessions against events; columns the server cannot compute; permissions).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
let w: PublishedWorld;
beforeAll(async () => {
  h = await createHarness();
  w = await publishedWorld(h);
}, 120_000);
afterAll(async () => h?.close());

interface EventOptions {
  type?: string;
  session?: string;
  visitor?: string;
  page?: string | null;
  space?: string | null;
  path?: string;
  timestamp?: string;
  [extra: string]: unknown;
}

function event(o: EventOptions = {}) {
  const {
    type = 'page_view',
    session = 's1',
    visitor = 'v1',
    page = null,
    space = null,
    path = '/',
    timestamp,
    ...extra
  } = o;
  return {
    type,
    session: { sessionId: session, visitorId: visitor, cookies: {}, userAgent: 'test', language: 'en', referrer: null },
    location: {
      url: `https://docs.example.test${path}`,
      siteSection: null,
      siteSpace: null,
      siteShareKey: null,
      space,
      revision: null,
      page,
    },
    ...(timestamp ? { timestamp } : {}),
    ...extra,
  };
}

/** When the feedback events of the aggregation tests happened (fixed, so time buckets are known). */
const feedbackAt = new Date(Date.now() - 60_000).toISOString();
const feedback = (rating: string, o: EventOptions = {}) =>
  event({ type: 'page_post_feedback', feedback: { rating }, timestamp: feedbackAt, ...o });

/** A fresh published site of its own organization (so counts start at zero). */
async function freshSite() {
  const world = await publishedWorld(h);
  const track = (events: unknown[]) => world.admin.client.post(`${world.api}/insights/events`, { events });
  const aggregate = (query: unknown) => world.admin.client.post(`${world.api}/insights/events/aggregate`, query);
  return { world, track, aggregate };
}

describe('trackEventsInSiteById', () => {
  it('records events (204) that an aggregation then counts', async () => {
    const { track, aggregate } = await freshSite();
    expect((await track([event(), event({ type: 'search_open' })])).status).toBe(204);
    const res = await aggregate({ range: 'last24Hours', groupBy: [{ column: 'eventType' }] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      columns: [
        { column: 'eventType', values: ['page_view', 'search_open'] },
        { column: 'eventsCount', values: [1, 1] },
      ],
    });
  });

  it('limits: 100 events pass, 101 are a 400; an empty list records nothing', async () => {
    const { track, aggregate } = await freshSite();
    expect((await track(Array.from({ length: 100 }, () => event()))).status).toBe(204);
    const over = await track(Array.from({ length: 101 }, () => event()));
    expect(over.status).toBe(400);
    expect(over.body.error.message).toContain('events');
    expect((await track([])).status).toBe(204);
    const res = await aggregate({ range: 'last24Hours' });
    expect(res.body.columns).toEqual([{ column: 'eventsCount', values: [100] }]);
  });

  it('comments: 1 and 512 characters pass, empty and 513 are a 400', async () => {
    const { track } = await freshSite();
    const comment = (text: string) =>
      event({ type: 'page_post_feedback_comment', feedback: { rating: 'bad', comment: text } });
    expect((await track([comment('x'), comment('y'.repeat(512))])).status).toBe(204);
    expect((await track([comment('')])).status).toBe(400);
    expect((await track([comment('y'.repeat(513))])).status).toBe(400);
  });

  it('timestamps within 5 minutes of now pass; beyond, a 400 naming the event', async () => {
    const { track } = await freshSite();
    const at = (minutes: number) => new Date(Date.now() + minutes * 60_000).toISOString();
    expect((await track([event({ timestamp: at(-4.5) }), event({ timestamp: at(4.5) })])).status).toBe(204);
    const old = await track([event(), event({ timestamp: at(-6) })]);
    expect(old.status).toBe(400);
    expect(old.body.error.message).toBe('body/events/1/timestamp must be within 5 minutes of the current time');
    expect((await track([event({ timestamp: at(6) })])).status).toBe(400);
  });

  it('bad input: unknown type, unknown field, bad rating, missing location are 400s', async () => {
    const { track } = await freshSite();
    expect((await track([event({ type: 'page_print' })])).status).toBe(400);
    expect((await track([{ ...event(), extra: 1 }])).status).toBe(400);
    expect((await track([feedback('great')])).status).toBe(400);
    const { location: _l, ...noLocation } = event();
    expect((await track([noLocation])).status).toBe(400);
    expect((await track([event({ path: `/${'a'.repeat(2100)}` })])).status).toBe(400);
  });

  it('unknown site, unpublished site, outsiders: 404; members who read the site may track', async () => {
    const body = { events: [event()] };
    expect((await w.admin.client.post(`/v1/orgs/${w.orgId}/sites/nope/insights/events`, body)).status).toBe(404);
    const outsider = await h.user();
    expect((await outsider.client.post(`${w.api}/insights/events`, body)).status).toBe(404);
    const reader = await h.member(w.orgId, 'read');
    expect((await reader.client.post(`${w.api}/insights/events`, body)).status).toBe(204);
    const draft = await w.admin.client.post(`/v1/orgs/${w.orgId}/sites`, { title: 'Draft' });
    expect(draft.status).toBe(201);
    const res = await w.admin.client.post(`/v1/orgs/${w.orgId}/sites/${draft.body.id}/insights/events`, body);
    expect(res.status).toBe(404);
    await expect(h.anonymous.post(`${w.api}/insights/events`, body)).resolves.toMatchObject({ status: 401 });
  });
});

describe('aggregateSiteEvents', () => {
  let s: Awaited<ReturnType<typeof freshSite>>;
  const P1 = { page: 'p1', space: 'sp' };
  const P2 = { page: 'p2', space: 'sp' };
  const earlier = new Date(Date.now() - 4 * 60_000).toISOString();
  beforeAll(async () => {
    s = await freshSite();
    const res = await s.track([
      feedback('good', { ...P1, session: 'a', visitor: 'x' }),
      feedback('good', { ...P1, session: 'b', visitor: 'x' }),
      feedback('bad', { ...P1, session: 'b', visitor: 'x' }),
      feedback('ok', { ...P2, session: 'c', visitor: 'y', path: '/two' }),
      event({ ...P1, session: 'a', visitor: 'x', timestamp: earlier }),
      event({ ...P2, session: 'a', visitor: 'x', path: '/two', timestamp: earlier }),
      event({ session: 'd', visitor: 'z', path: '/missing' }),
      event({
        type: 'page_post_feedback_comment',
        ...P2,
        session: 'c',
        visitor: 'y',
        feedback: { rating: 'ok', comment: 'Fine' },
      }),
    ]);
    expect(res.status).toBe(204);
  });

  it('feedback counts by page (pageFeedbackRating), ordered', async () => {
    const res = await s.aggregate({
      range: 'last7Days',
      select: [{ column: 'page' }, { column: 'pageFeedbackRating' }],
      groupBy: [{ column: 'page' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    });
    expect(res.status).toBe(200);
    expect(res.body.columns).toEqual([
      { column: 'page', values: [P1, P2] },
      {
        column: 'pageFeedbackRating',
        values: [
          { good: 2, ok: 0, bad: 1 },
          { good: 0, ok: 1, bad: 0 },
        ],
      },
    ]);
  });

  it('by rating, with events, sessions and visitors counts', async () => {
    const res = await s.aggregate({
      range: 'last24Hours',
      select: [
        { column: 'eventPageFeedbackRating' },
        { column: 'eventsCount' },
        { column: 'sessionsCount' },
        { column: 'visitorsCount' },
      ],
      groupBy: [{ column: 'eventPageFeedbackRating' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
      order: { by: { column: 'eventsCount' }, direction: 'desc' },
    });
    expect(res.body.columns).toEqual([
      { column: 'eventPageFeedbackRating', values: ['good', 'bad', 'ok'] },
      { column: 'eventsCount', values: [2, 1, 1] },
      { column: 'sessionsCount', values: [2, 1, 1] },
      { column: 'visitorsCount', values: [1, 1, 1] },
    ]);
  });

  it('sessions against events over the whole range; eventType groups', async () => {
    const all = await s.aggregate({
      range: 'last24Hours',
      select: [{ column: 'eventsCount' }, { column: 'sessionsCount' }, { column: 'visitorsCount' }],
    });
    expect(all.body.columns).toEqual([
      { column: 'eventsCount', values: [8] },
      { column: 'sessionsCount', values: [4] },
      { column: 'visitorsCount', values: [3] },
    ]);
    const byType = await s.aggregate({ range: 'last24Hours', groupBy: [{ column: 'eventType' }] });
    expect(byType.body.columns).toEqual([
      { column: 'eventType', values: ['page_post_feedback', 'page_post_feedback_comment', 'page_view'] },
      { column: 'eventsCount', values: [4, 1, 3] },
    ]);
  });

  it('custom range and datetime filters keep only the earlier events', async () => {
    const from = new Date(Date.parse(earlier) - 1000).toISOString();
    const to = new Date(Date.parse(earlier) + 1000).toISOString();
    const custom = await s.aggregate({ range: { from, to }, groupBy: [{ column: 'urlPath' }] });
    expect(custom.body.columns).toEqual([
      { column: 'urlPath', values: ['/', '/two'] },
      { column: 'eventsCount', values: [1, 1] },
    ]);
    const before = await s.aggregate({
      range: 'last24Hours',
      where: [{ column: 'datetime', operator: 'lessThanOrEqual', values: [to] }],
    });
    expect(before.body.columns).toEqual([{ column: 'eventsCount', values: [2] }]);
    const empty = await s.aggregate({ range: { from: '2020-01-01T00:00:00Z', to: '2020-02-01T00:00:00Z' } });
    expect(empty.body.columns).toEqual([{ column: 'eventsCount', values: [0] }]);
    const reversed = await s.aggregate({ range: { from: to, to: from } });
    expect(reversed.status).toBe(400);
  });

  it('where: page in / notIn (null is a page that was not found), HAVING on counts, limit', async () => {
    const onP1 = await s.aggregate({ range: 'last24Hours', where: [{ column: 'page', values: [P1] }] });
    expect(onP1.body.columns).toEqual([{ column: 'eventsCount', values: [4] }]);
    const missing = await s.aggregate({
      range: 'last24Hours',
      select: [{ column: 'urlPath' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'urlPath' }],
      where: [{ column: 'page', values: [null] }],
    });
    expect(missing.body.columns).toEqual([
      { column: 'urlPath', values: ['/missing'] },
      { column: 'eventsCount', values: [1] },
    ]);
    const notP1 = await s.aggregate({
      range: 'last24Hours',
      where: [{ column: 'page', operator: 'notIn', values: [P1, null] }],
    });
    expect(notP1.body.columns).toEqual([{ column: 'eventsCount', values: [3] }]);
    const busy = await s.aggregate({
      range: 'last24Hours',
      groupBy: [{ column: 'page' }],
      where: [{ column: 'eventsCount', operator: 'greaterThan', values: [3] }],
    });
    expect(busy.body.columns[0]).toEqual({ column: 'page', values: [P1] });
    const limited = await s.aggregate({ range: 'last24Hours', groupBy: [{ column: 'urlPath' }], limit: 1 });
    expect(limited.body.columns[0].values).toHaveLength(1);
    expect((await s.aggregate({ range: 'last24Hours', limit: 1001 })).status).toBe(400);
    expect((await s.aggregate({ range: 'last24Hours', limit: 0 })).status).toBe(400);
  });

  it('datetime by hour and day, dayOfWeek and hourOfDay', async () => {
    const now = new Date(feedbackAt);
    const res = await s.aggregate({
      range: 'last24Hours',
      select: [{ column: 'datetime', interval: 'day' }, { column: 'dayOfWeek' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'dayOfWeek' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    });
    const day = `${now.toISOString().slice(0, 10)}T00:00:00.000Z`;
    expect(res.body.columns).toEqual([
      { column: 'datetime', values: [day] },
      { column: 'dayOfWeek', values: [((now.getUTCDay() + 6) % 7) + 1] },
      { column: 'eventsCount', values: [4] },
    ]);
    const hours = await s.aggregate({
      range: 'last24Hours',
      groupBy: [{ column: 'datetime', interval: 'hour' }, { column: 'hourOfDay' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    });
    expect(hours.body.columns[0].values).toEqual([`${now.toISOString().slice(0, 13)}:00:00.000Z`]);
    expect(hours.body.columns[1].values).toEqual([now.getUTCHours()]);
  });

  it('columns the server does not record, and misuses, are 400s naming them', async () => {
    const device = await s.aggregate({ range: 'last24Hours', groupBy: [{ column: 'visitorDevice' }] });
    expect(device.status).toBe(400);
    expect(device.body.error.message).toContain('visitorDevice');
    const utm = await s.aggregate({ range: 'last24Hours', where: [{ column: 'utmSource', values: ['x'] }] });
    expect(utm.status).toBe(400);
    expect(utm.body.error.message).toContain('utmSource');
    const interval = await s.aggregate({ range: 'last24Hours', groupBy: [{ column: 'url', interval: 'day' }] });
    expect(interval.status).toBe(400);
    const compare = await s.aggregate({
      range: 'last24Hours',
      where: [{ column: 'eventType', operator: 'greaterThan', values: ['page_view'] }],
    });
    expect(compare.status).toBe(400);
    const badValue = await s.aggregate({ range: 'last24Hours', where: [{ column: 'dayOfWeek', values: [8] }] });
    expect(badValue.status).toBe(400);
    const order = await s.aggregate({ range: 'last24Hours', order: { by: { column: 'url' }, direction: 'asc' } });
    expect(order.status).toBe(400);
    expect((await s.aggregate({ groupBy: [] })).status).toBe(400);
    expect((await s.aggregate({ range: 'lastCentury' })).status).toBe(400);
  });

  it('permissions: outsider 404, members read insights, scope site:insights:read', async () => {
    const url = `${s.world.api}/insights/events/aggregate`;
    const query = { range: 'last24Hours' };
    expect((await (await h.user()).client.post(url, query)).status).toBe(404);
    const reader = await h.member(s.world.orgId, 'read');
    expect((await reader.client.post(url, query)).body.columns).toEqual([{ column: 'eventsCount', values: [8] }]);
    const guest = await h.member(s.world.orgId, null);
    expect((await guest.client.post(url, query)).status).toBe(404);
    const narrow = await h.member(s.world.orgId, 'admin', { scopes: ['site:read'] });
    expect((await narrow.client.post(url, query)).status).toBe(403);
    const scoped = await h.member(s.world.orgId, 'admin', { scopes: ['site:insights:read'] });
    expect((await scoped.client.post(url, query)).status).toBe(200);
    expect(
      (
        await s.world.admin.client.post(
          `${s.world.api.replace(s.world.siteId, 'nope')}/insights/events/aggregate`,
          query,
        )
      ).status,
    ).toBe(404);
  });
});
