/**
 * The official operations around published sites (getSiteStructure, getSitePublishingPreviewById,
 * searchSiteContent) and the site's own search box (results page, live results, AI answers).
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

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

describe('getSiteStructure', () => {
  it('returns the sections in order, with their site spaces, to members who see the site', async () => {
    const res = await w.admin.client.get(`${w.api}/structure`);
    expect(res.status).toBe(200);
    expect(res.body.type).toBe('sections');
    expect(res.body.structure.map((s: { title: string }) => s.title)).toEqual(['Acme Docs', 'API']);
    expect(res.body.structure[1].siteSpaces[0].space.id).toBe(w.reference);
    expect(res.body.structure[1].urls.published).toBe(`${w.siteUrl}/api`);
    const reader = await h.member(w.orgId, 'read');
    expect((await reader.client.get(`${w.api}/structure`)).status).toBe(200);
    expect((await (await h.user()).client.get(`${w.api}/structure`)).status).toBe(404);
    expect((await w.admin.client.get(`${w.api}/structure?shareKey=nope`)).status).toBe(400);
  });
});

describe('getSitePublishingPreviewById', () => {
  it('a link valid for an hour opens the site even when it is unpublished and private', async () => {
    const other = await publishedWorld(h, 'share-link');
    expect((await other.admin.client.post(`${other.api}/unpublish`)).status).toBe(200);
    expect((await get(other.base)).status).toBe(404);
    const res = await other.admin.client.get(`${other.api}/publishing/preview`);
    expect(res.status).toBe(200);
    const url = new URL(res.body.url);
    expect(url.origin + url.pathname).toBe(`http://bindery.test${other.base}`);
    const first = await get(url.pathname + url.search);
    expect(first.status).toBe(302);
    expect(first.headers.location).toBe(other.base);
    const cookie = (first.headers['set-cookie'] as string).split(';')[0] as string;
    const page = await get(`${other.base}/installation`, { cookie });
    expect(page.status).toBe(200);
    expect(page.headers['x-robots-tag']).toBe('noindex');
    // A forged or foreign token opens nothing.
    expect((await get(`${other.base}?preview=forged`)).status).toBe(404);
    const foreign = new URL((await w.admin.client.get(`${w.api}/publishing/preview`)).body.url).searchParams.get(
      'preview',
    );
    expect((await get(`${other.base}?preview=${foreign}`)).status).toBe(404);
  });

  it('a site space and a target address on the site; others are refused', async () => {
    const structure = (await w.admin.client.get(`${w.api}/structure`)).body;
    const siteSpace = structure.structure[1].siteSpaces[0].id;
    const res = await w.admin.client.get(`${w.api}/publishing/preview?siteSpace=${siteSpace}`);
    expect(new URL(res.body.url).pathname).toBe(`${w.base}/api`);
    const target = await w.admin.client.get(`${w.api}/publishing/preview?target=/deployment/docker`);
    expect(new URL(target.body.url).pathname).toBe(`${w.base}/deployment/docker`);
    expect((await w.admin.client.get(`${w.api}/publishing/preview?siteSpace=nope`)).status).toBe(400);
    expect((await w.admin.client.get(`${w.api}/publishing/preview?target=https://evil.example.com/`)).status).toBe(400);
  });
});

describe('searchSiteContent', () => {
  it('finds pages of the site only, grouped by space, ranked, with sections and published URLs', async () => {
    // A space of the organization that is not on the site is never searched.
    const outside = (await w.admin.client.post(`/v1/orgs/${w.orgId}/spaces`, { title: 'Outside' })).body.id;
    const { edit } = await import('../helpers/published.js');
    await edit(w.admin.client, outside, [
      () => [
        { operation: 'insert_page', title: 'Zeppelin', document: { markdown: 'Zeppelin orchestration outside.' } },
      ],
    ]);
    const res = await w.admin.client.post(`${w.api}/search`, {
      query: 'zeppelin orchestration',
      scope: { mode: 'all' },
    });
    expect(res.status).toBe(200);
    expect(res.body.count).toBe(1);
    expect(res.body.items).toHaveLength(1);
    const [space] = res.body.items;
    expect(space).toMatchObject({ type: 'space', id: w.guide, title: 'Guide' });
    expect(space.pages[0]).toMatchObject({
      id: w.pages.docker,
      title: 'Docker',
      path: 'deployment/docker',
      rank: 1,
      ancestors: [{ title: 'Advanced' }, { title: 'Deployment' }],
      urls: { app: `${w.siteUrl}/deployment/docker` },
    });
    expect(space.pages[0].sections[0].body).toContain('Zeppelin orchestration keeps it alive');
  });

  it('scopes: default (each section’s default), specific, all, current site space; paging', async () => {
    const structure = (await w.admin.client.get(`${w.api}/structure`)).body;
    const apiSiteSpace = structure.structure[1].siteSpaces[0].id;
    const guideSiteSpace = structure.structure[0].siteSpaces[0].id;
    const search = (body: unknown, query = '') => w.admin.client.post(`${w.api}/search${query}`, body);
    const spacesOf = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((i) => i.id).sort();
    expect(spacesOf(await search({ query: 'bearer token' }))).toEqual([w.reference]);
    expect(
      spacesOf(await search({ query: 'bearer token', scope: { mode: 'specific', siteSpaceIds: [guideSiteSpace] } })),
    ).toEqual([]);
    expect(
      spacesOf(
        await search({
          query: 'bearer token',
          scope: { mode: 'default', currentSiteSpace: guideSiteSpace, restrictTo: 'currentSiteSpace' },
        }),
      ),
    ).toEqual([]);
    expect(spacesOf(await search({ query: 'bearer token', siteSpaceIds: [apiSiteSpace] }))).toEqual([w.reference]);
    expect(spacesOf(await search({ query: 'bearer token', mode: 'current', siteSpaceId: guideSiteSpace }))).toEqual([
      w.reference,
    ]);
    expect((await search({ query: 'x', scope: { mode: 'specific', siteSpaceIds: ['nope'] } })).status).toBe(400);
    expect((await search({ query: 'x', scope: { mode: 'default', restrictTo: 'otherSiteSpaces' } })).status).toBe(400);

    const all = await search({ query: 'install', scope: { mode: 'all' } });
    expect(all.body.count).toBeGreaterThan(1);
    const first = await search({ query: 'install', scope: { mode: 'all' } }, '?limit=1');
    expect(first.body.items[0].pages).toHaveLength(1);
    expect(first.body.items[0].pages[0].rank).toBe(1);
    const second = await search({ query: 'install', scope: { mode: 'all' } }, `?limit=1&page=${first.body.next.page}`);
    expect(second.body.items[0].pages[0].rank).toBe(2);
  });

  it('needs the site:search scope and a member who sees the site', async () => {
    const scoped = await h.member(w.orgId, 'read', { scopes: ['site:read'] });
    expect((await scoped.client.post(`${w.api}/search`, { query: 'docker' })).status).toBe(403);
    expect((await (await h.user()).client.post(`${w.api}/search`, { query: 'docker' })).status).toBe(404);
    expect((await w.admin.client.post(`${w.api}/search`, {})).status).toBe(400);
  });
});

describe('the search box', () => {
  it('without JavaScript: a results page linking the pages (and sections) found', async () => {
    const res = await get(`${w.base}/~search?q=bearer+token`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('Results for “bearer token”');
    expect(res.body).toContain(`<a href="${w.base}/api#authentication">Endpoints</a>`);
    expect(res.body).toContain('<input id="site-search" type="search" name="q"');
    const none = await get(`${w.base}/~search?q=xylophone`);
    expect(none.body).toContain('No results.');
  });

  it('live results as JSON, with an ask link when aiSearch is on', async () => {
    const res = await get(`${w.base}/~search.json?q=zeppelin`);
    expect(res.status).toBe(200);
    expect(res.body.results[0]).toMatchObject({ title: 'Docker', href: `${w.base}/deployment/docker` });
    expect(res.body.ask).toBe(`${w.base}/~ask?q=zeppelin`);
    await w.admin.client.put(`${w.api}/customization`, { aiSearch: { enabled: false } });
    expect((await get(`${w.base}/~search.json?q=zeppelin`)).body.ask).toBeUndefined();
    expect((await get(`${w.base}/~ask?q=zeppelin`)).status).toBe(404);
    await w.admin.client.put(`${w.api}/customization`, {});
  });

  it('asks the question through the ask pipeline, limited to the site, and links the sources', async () => {
    const res = await get(`${w.base}/~ask?q=${encodeURIComponent('How is the container orchestrated?')}`);
    expect(res.status).toBe(200);
    expect(res.body).toContain('<h2>Answer</h2>');
    expect(res.body).toContain('Zeppelin orchestration');
    expect(res.body).toContain(`<a href="${w.base}/deployment/docker">Docker</a>`);
  });
});
