/**
 * Page feedback on a published site: the "Was this page helpful?" control (only with the
 * `feedback` switch on), the form post without JavaScript (303 back to the page's thank-you) and the
 * script's way (204, then a comment), each recorded as an insights event the site's team reads with
 * `aggregateSiteEvents`; the site's access decision, Origin checks, bad input and a site on its own host.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, PUBLIC_URL } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

const ORIGIN = new URL(PUBLIC_URL).origin;

async function post(url: string, fields: Record<string, string>, headers: Record<string, string> = { origin: ORIGIN }) {
  const res = await h.app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    payload: new URLSearchParams(fields).toString(),
  });
  return { status: res.statusCode, headers: res.headers, body: res.body };
}

/** A published site with the feedback switch on. */
async function feedbackSite(visibility = 'public'): Promise<PublishedWorld> {
  const w = await publishedWorld(h, visibility);
  expect((await w.admin.client.put(`${w.api}/customization`, { feedback: { enabled: true } })).status).toBe(200);
  return w;
}

const aggregate = (w: PublishedWorld, query: Record<string, unknown>) =>
  w.admin.client.post(`${w.api}/insights/events/aggregate`, { range: 'last24Hours', ...query });

describe('the control', () => {
  it('is under each content page only when feedback is enabled', async () => {
    const w = await publishedWorld(h);
    const off = await h.anonymous.get(`${w.base}/installation`);
    expect(off.status).toBe(200);
    expect(off.body).not.toContain('Was this page helpful?');
    expect((await post(`${w.base}/~feedback`, { page: '/installation', rating: 'good' })).status).toBe(404);

    await w.admin.client.put(`${w.api}/customization`, { feedback: { enabled: true } });
    const on = await h.anonymous.get(`${w.base}/installation`);
    expect(on.body).toContain(`<form class="feedback" method="post" action="${w.base}/~feedback"`);
    expect(on.body).toContain('<input type="hidden" name="page" value="/installation">');
    expect(on.body).toContain('<span id="feedback-question">Was this page helpful?</span>');
    for (const [rating, label] of [
      ['good', 'Yes'],
      ['ok', 'Somewhat'],
      ['bad', 'No'],
    ]) {
      expect(on.body).toContain(`<button type="submit" name="rating" value="${rating}">${label}</button>`);
    }
    expect(on.body).toContain('id="feedback-thanks"');
    // Not on the search page or the 404 page.
    expect((await h.anonymous.get(`${w.base}/~search?q=install`)).body).not.toContain('Was this page helpful?');
    expect((await h.anonymous.get(`${w.base}/nope`)).body).not.toContain('Was this page helpful?');
  });
});

describe('posting feedback', () => {
  let w: PublishedWorld;
  beforeAll(async () => {
    w = await feedbackSite();
  });

  it('without JavaScript: records page_post_feedback for the page and answers 303 to its thank-you', async () => {
    const res = await post(`${w.base}/~feedback`, { page: '/installation', rating: 'good' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`${w.base}/installation#feedback-thanks`);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(String(res.headers['set-cookie'])).toContain(`bindery_session_${w.siteId}=`);
    // The root page (the site space's first page) is addressed by an empty path.
    expect((await post(`${w.base}/~feedback`, { page: '', rating: 'bad' })).status).toBe(303);

    const counts = await aggregate(w, {
      select: [{ column: 'page' }, { column: 'urlPath' }, { column: 'pageFeedbackRating' }],
      groupBy: [{ column: 'page' }, { column: 'urlPath' }],
      order: { by: { column: 'urlPath' }, direction: 'asc' },
    });
    expect(counts.status).toBe(200);
    expect(counts.body.columns).toEqual([
      {
        column: 'page',
        values: [
          { page: w.pages.start, space: w.guide },
          { page: w.pages.install, space: w.guide },
        ],
      },
      { column: 'urlPath', values: [w.base, `${w.base}/installation`] },
      {
        column: 'pageFeedbackRating',
        values: [
          { good: 0, ok: 0, bad: 1 },
          { good: 1, ok: 0, bad: 0 },
        ],
      },
    ]);
  });

  it('with JavaScript: 204, then a comment recorded as page_post_feedback_comment in the same session', async () => {
    const json = { origin: ORIGIN, accept: 'application/json' };
    const first = await post(`${w.base}/~feedback`, { page: '/installation', rating: 'ok' }, json);
    expect(first.status).toBe(204);
    // The session cookie, and the visitor's (the `insights.trackingCookie` default is on).
    const set = first.headers['set-cookie'] as string[];
    expect(set.map((c) => c.split('=')[0]).sort()).toEqual([
      `bindery_session_${w.siteId}`,
      `bindery_visitor_${w.siteId}`,
    ]);
    const cookie = set.map((c) => c.split(';')[0]).join('; ');
    const second = await post(
      `${w.base}/~feedback`,
      { page: '/installation', rating: 'ok', comment: 'Missing the Windows steps.' },
      { ...json, cookie },
    );
    expect(second.status).toBe(204);
    expect(second.headers['set-cookie']).toBeUndefined();
    const res = await aggregate(w, {
      select: [{ column: 'eventType' }, { column: 'eventPageFeedbackComment' }, { column: 'sessionsCount' }],
      groupBy: [{ column: 'eventType' }, { column: 'eventPageFeedbackComment' }],
      where: [{ column: 'eventPageFeedbackRating', values: ['ok'] }],
    });
    expect(res.body.columns).toEqual([
      { column: 'eventType', values: ['page_post_feedback', 'page_post_feedback_comment'] },
      { column: 'eventPageFeedbackComment', values: [null, 'Missing the Windows steps.'] },
      { column: 'sessionsCount', values: [1, 1] },
    ]);
    const sessions = await aggregate(w, {
      select: [{ column: 'sessionsCount' }],
      where: [{ column: 'eventPageFeedbackRating', values: ['ok'] }],
    });
    expect(sessions.body.columns).toEqual([{ column: 'sessionsCount', values: [1] }]);
  });

  it('only from the site: a foreign Origin or no Origin nor Referer is a 403; a same-site Referer passes', async () => {
    const fields = { page: '/installation', rating: 'good' };
    expect((await post(`${w.base}/~feedback`, fields, { origin: 'https://evil.test' })).status).toBe(403);
    expect((await post(`${w.base}/~feedback`, fields, {})).status).toBe(403);
    expect((await post(`${w.base}/~feedback`, fields, { referer: 'https://evil.test/x' })).status).toBe(403);
    const ok = await post(`${w.base}/~feedback`, fields, { referer: `${ORIGIN}${w.base}/installation` });
    expect(ok.status).toBe(303);
  });

  it('bad input: 400 for a bad rating or comment, 404 for a page that is not there or another address', async () => {
    const at = `${w.base}/~feedback`;
    expect((await post(at, { page: '/installation', rating: 'great' })).status).toBe(400);
    expect((await post(at, { page: '/installation' })).status).toBe(400);
    expect((await post(at, { rating: 'good' })).status).toBe(400);
    expect((await post(at, { page: '/installation', rating: 'good', comment: 'x'.repeat(512) })).status).toBe(303);
    expect((await post(at, { page: '/installation', rating: 'good', comment: 'x'.repeat(513) })).status).toBe(400);
    expect((await post(at, { page: '/installation', rating: 'good', comment: '  ' })).status).toBe(400);
    expect((await post(at, { page: '/nope', rating: 'good' })).status).toBe(404);
    expect((await post(at, { page: '/installation.md', rating: 'good' })).status).toBe(404);
    // Nothing else of a site takes a POST (the app's 405, with Allow).
    expect((await post(`${w.base}/installation`, { page: '/installation', rating: 'good' })).status).toBe(405);
    expect((await h.anonymous.get(at)).status).toBe(404);
  });
});

describe('access', () => {
  it('a share-link site: without the key a 404; with the cookie its link sets, recorded', async () => {
    const w = await feedbackSite('share-link');
    const fields = { page: '/installation', rating: 'good' };
    const refused = await post(`${w.base}/~feedback`, fields);
    expect(refused.status).toBe(404);
    expect(refused.body).not.toContain('Acme');
    const link = await w.admin.client.post(`${w.api}/share-links`, { name: 'Partners' });
    const key = new URL(link.body.urls.published).searchParams.get('share') as string;
    const opened = await h.anonymous.get(`${w.base}/installation?share=${key}`);
    expect(opened.status).toBe(302);
    const cookie = String(opened.headers['set-cookie']).split(';')[0] as string;
    expect((await post(`${w.base}/~feedback`, fields, { origin: ORIGIN, cookie })).status).toBe(303);
    const res = await aggregate(w, { groupBy: [{ column: 'siteShareKey' }] });
    expect(res.body.columns).toEqual([
      { column: 'siteShareKey', values: [key] },
      { column: 'eventsCount', values: [1] },
    ]);
  });

  it('an unpublished site: 404', async () => {
    const w = await feedbackSite();
    await w.admin.client.post(`${w.api}/unpublish`);
    expect((await post(`${w.base}/~feedback`, { page: '/installation', rating: 'good' })).status).toBe(404);
  });

  it("a site on its organization's own hostname takes feedback there too", async () => {
    const w = await feedbackSite();
    const host = `feedback-${w.orgId.toLowerCase()}.test`;
    await h.db.updateTable('organizations').set({ custom_hostname: host }).where('id', '=', w.orgId).execute();
    await w.admin.client.patch(w.api, { title: 'Acme Docs' });
    const { basename } = await h.db
      .selectFrom('sites')
      .select('basename')
      .where('id', '=', w.siteId)
      .executeTakeFirstOrThrow();
    const page = await h.anonymous.request('GET', `/${basename}/installation`, undefined, { host });
    expect(page.body).toContain(`action="/${basename}/~feedback"`);
    const res = await post(
      `/${basename}/~feedback`,
      { page: '/installation', rating: 'bad' },
      { host, origin: `https://${host}` },
    );
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe(`/${basename}/installation#feedback-thanks`);
    expect(String(res.headers['set-cookie'])).toContain('Secure');
    const counts = await aggregate(w, {
      select: [{ column: 'url' }, { column: 'eventsCount' }],
      groupBy: [{ column: 'url' }],
    });
    expect(counts.body.columns[0]).toEqual({ column: 'url', values: [`https://${host}/${basename}/installation`] });
  });
});
