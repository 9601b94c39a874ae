/**
 * Who can read a published site: every row of the access table (public, unlisted, share-link,
 * unpublished; visitor-auth in visitor-auth.test.ts), and content the API would not show.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type PublishedWorld, publishedWorld } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

/** Nothing of the site's content or name is in a refusal. */
function expectNothingOf(body: string) {
  expect(body).not.toContain('Acme');
  expect(body).not.toContain('Getting started');
}

describe('public and unlisted', () => {
  it('public: anyone reads it, search engines are welcome', async () => {
    const w = await publishedWorld(h, 'public');
    const res = await get(`${w.base}/installation`);
    expect(res.status).toBe(200);
    expect(res.headers['cache-control']).toBe('public, max-age=0, must-revalidate');
    expect(res.headers['x-robots-tag']).toBeUndefined();
    expect(res.body).not.toContain('name="robots"');
  });

  it('unlisted: anyone reads it; noindex header and meta, no sitemap, robots.txt disallows', async () => {
    const w = await publishedWorld(h, 'unlisted');
    const res = await get(`${w.base}/installation`);
    expect(res.status).toBe(200);
    expect(res.headers['x-robots-tag']).toBe('noindex');
    expect(res.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect((await get(`${w.base}/installation.md`)).headers['x-robots-tag']).toBe('noindex');
    expect((await get(`${w.base}/sitemap.xml`)).status).toBe(404);
    expect((await get(`${w.base}/robots.txt`)).body).toBe('User-agent: *\nDisallow: /\n');
  });
});

describe('share-link', () => {
  let w: PublishedWorld;
  let key: string;
  let shareUrl: string;
  beforeAll(async () => {
    w = await publishedWorld(h, 'share-link');
    const link = await w.admin.client.post(`${w.api}/share-links`, { name: 'Partners' });
    expect(link.status).toBe(201);
    shareUrl = link.body.urls.published;
    key = new URL(shareUrl).searchParams.get('share') as string;
  });

  it('without a key: a 404 that shows nothing of the site', async () => {
    for (const path of ['', '/installation', '/installation.md', '/llms.txt', '/sitemap.xml', '/~search?q=install']) {
      const res = await get(`${w.base}${path}`);
      expect(res.status, path).toBe(404);
      expectNothingOf(res.body);
    }
  });

  it('?share=<key> sets an HttpOnly cookie for the site path and comes back without the key; the cookie then opens it', async () => {
    const first = await get(new URL(shareUrl).pathname + new URL(shareUrl).search.replace('?', '?x=1&'));
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(`${w.base}?x=1`);
    const cookie = first.headers['set-cookie'] as string;
    expect(cookie).toContain(`bindery_share_${w.siteId}=${key}`);
    expect(cookie).toContain(`Path=${w.base}`);
    expect(cookie).toContain('HttpOnly');
    expect(cookie).toContain('SameSite=Lax');
    const pair = cookie.split(';')[0] as string;
    const page = await get(`${w.base}/installation`, { cookie: pair });
    expect(page.status).toBe(200);
    expect(page.body).toContain('Installation');
    expect(page.headers['cache-control']).toBe('private, no-cache');
    expect(page.headers['x-robots-tag']).toBe('noindex');
    expect((await get(`${w.base}/installation.md`, { cookie: pair })).status).toBe(200);
  });

  it('an inactive, deleted or foreign key is refused', async () => {
    const other = await publishedWorld(h, 'share-link');
    const foreign = await other.admin.client.post(`${other.api}/share-links`, { name: 'Theirs' });
    const foreignKey = new URL(foreign.body.urls.published).searchParams.get('share') as string;
    expect((await get(`${w.base}?share=${foreignKey}`)).status).toBe(404);
    expect((await get(`${w.base}`, { cookie: `bindery_share_${w.siteId}=${foreignKey}` })).status).toBe(404);

    const link = await w.admin.client.post(`${w.api}/share-links`, { name: 'Temp' });
    const tempKey = new URL(link.body.urls.published).searchParams.get('share') as string;
    const cookie = `bindery_share_${w.siteId}=${tempKey}`;
    expect((await get(w.base, { cookie })).status).toBe(200);
    expect((await w.admin.client.patch(`${w.api}/share-links/${link.body.id}`, { active: false })).status).toBe(200);
    const inactive = await get(w.base, { cookie });
    expect(inactive.status).toBe(404);
    expectNothingOf(inactive.body);
    expect((await get(`${w.base}?share=${tempKey}`)).status).toBe(404);
    expect((await w.admin.client.patch(`${w.api}/share-links/${link.body.id}`, { active: true })).status).toBe(200);
    expect((await get(w.base, { cookie })).status).toBe(200);
    expect((await w.admin.client.delete(`${w.api}/share-links/${link.body.id}`)).status).toBe(204);
    expect((await get(w.base, { cookie })).status).toBe(404);
    expect((await get(`${w.base}?share=nonsense`)).status).toBe(404);
  });
});

describe('unpublished and hidden content', () => {
  it('an unpublished site is a 404 to everyone, its address included', async () => {
    const w = await publishedWorld(h, 'public');
    expect((await w.admin.client.post(`${w.api}/unpublish`)).status).toBe(200);
    for (const path of ['', '/installation', '/llms.txt', '/robots.txt']) {
      const res = await get(`${w.base}${path}`);
      expect(res.status).toBe(404);
      expectNothingOf(res.body);
    }
  });

  it('a deleted space is never rendered: its section disappears, its pages are gone', async () => {
    const w = await publishedWorld(h, 'public');
    expect((await get(`${w.base}/api`)).status).toBe(200);
    expect((await w.admin.client.delete(`/v1/spaces/${w.reference}`)).status).toBe(204);
    const api = await get(`${w.base}/api`);
    expect(api.status).toBe(404);
    expect(api.body).not.toContain('Endpoints');
    const root = (await get(w.base)).body as string;
    expect(root).not.toContain('<nav class="tabs"');
    expect((await get(`${w.base}/llms.txt`)).body).not.toContain('Endpoints');
    // The link to it from another space keeps its text and loses the link.
    expect((await get(`${w.base}/installation`)).body).toContain('<span class="unresolved">endpoints</span>');
  });
});
