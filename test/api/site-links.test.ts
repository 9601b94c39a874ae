/** Site redirects and share links. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

interface Site {
  orgId: string;
  admin: TestUser;
  url: string;
  siteSpaces: Array<{ id: string; path: string }>;
}

async function newSite(options: { visibility?: string } = {}): Promise<Site> {
  const org = await h.org();
  const spaces = [];
  for (const title of ['Guide', 'Reference']) {
    spaces.push((await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title })).body.id);
  }
  const res = await org.admin.client.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces, ...options });
  const url = `/v1/orgs/${org.id}/sites/${res.body.id}`;
  const siteSpaces = (await org.admin.client.get(`${url}/site-spaces`)).body.items;
  return { orgId: org.id, admin: org.admin, url, siteSpaces };
}

describe('site redirects', () => {
  it('creates (201, Location), lists, updates and deletes', async () => {
    const site = await newSite();
    const target = site.siteSpaces[1]?.id;
    const res = await site.admin.client.post(`${site.url}/redirects`, {
      source: '/old/reference',
      destination: { kind: 'site-space', siteSpaceId: target },
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${site.url}/redirects/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'site-redirect',
      source: '/old/reference',
      destination: { kind: 'site-space', siteSpaceId: target },
    });
    const external = await site.admin.client.post(`${site.url}/redirects`, {
      source: '/blog',
      destination: { kind: 'external', url: 'https://blog.acme.test/' },
    });
    expect(external.status).toBe(201);
    const list = await site.admin.client.get(`${site.url}/redirects?limit=1`);
    expect(list.body.count).toBe(2);
    expect(list.body.items[0].id).toBe(res.body.id);
    const rest = await site.admin.client.get(`${site.url}/redirects?page=${list.body.next.page}`);
    expect(rest.body.items.map((r: { id: string }) => r.id)).toEqual([external.body.id]);

    const patched = await site.admin.client.patch(`${site.url}/redirects/${res.body.id}`, { source: '/older' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ source: '/older', destination: { kind: 'site-space' } });
    expect(patched.body.updatedAt).toBeDefined();
    expect((await site.admin.client.delete(`${site.url}/redirects/${res.body.id}`)).status).toBe(204);
    expect((await site.admin.client.delete(`${site.url}/redirects/${res.body.id}`)).status).toBe(404);
    expect((await site.admin.client.patch(`${site.url}/redirects/${res.body.id}`, { source: '/x1' })).status).toBe(404);
  });

  it.each([
    [`/${'a'.repeat(511)}`, 201],
    [`/${'a'.repeat(512)}`, 400],
    ['/a/b-c_d.e', 201],
    ['/ab', 201],
    ['/a', 400],
    ['no-slash', 400],
    ['/trailing/', 400],
    ['/with space', 400],
    ['/percent%20', 400],
    ['', 400],
  ])('source %j -> %i', async (source, status) => {
    const site = await newSite();
    const destination = { kind: 'site-space', siteSpaceId: site.siteSpaces[0]?.id };
    const res = await site.admin.client.post(`${site.url}/redirects`, { source, destination });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('source');
    const resolved = await site.admin.client.get(`${site.url}/redirect?source=${encodeURIComponent(source)}`);
    expect(resolved.status).toBe(status === 201 ? 200 : 400);
    const other = await newSite();
    const ok = await other.admin.client.post(`${other.url}/redirects`, {
      source: '/fine',
      destination: { kind: 'site-space', siteSpaceId: other.siteSpaces[0]?.id },
    });
    const patched = await other.admin.client.patch(`${other.url}/redirects/${ok.body.id}`, { source });
    expect(patched.status).toBe(status === 201 ? 200 : 400);
  });

  it('sources are unique per site (409); destinations must be of the site (400)', async () => {
    const site = await newSite();
    const destination = { kind: 'site-space', siteSpaceId: site.siteSpaces[0]?.id };
    await site.admin.client.post(`${site.url}/redirects`, { source: '/same', destination });
    const dup = await site.admin.client.post(`${site.url}/redirects`, { source: '/same', destination });
    expect(dup.status).toBe(409);
    const other = await newSite();
    expect(
      (
        await other.admin.client.post(`${other.url}/redirects`, {
          source: '/same',
          destination: { kind: 'site-space', siteSpaceId: other.siteSpaces[0]?.id },
        })
      ).status,
    ).toBe(201);
    const foreign = await site.admin.client.post(`${site.url}/redirects`, {
      source: '/foreign',
      destination: { kind: 'site-space', siteSpaceId: other.siteSpaces[0]?.id },
    });
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toContain('siteSpaceId');
    expect(
      (
        await site.admin.client.post(`${site.url}/redirects`, {
          source: '/s',
          destination: { kind: 'site-section', siteSectionId: 'nope' },
        })
      ).status,
    ).toBe(400);
    expect(
      (await site.admin.client.post(`${site.url}/redirects`, { source: '/s', destination: { kind: 'page' } })).status,
    ).toBe(400);
    expect((await site.admin.client.post(`${site.url}/redirects`, { source: '/s' })).status).toBe(400);
  });

  it('resolves a source to the absolute URL of its destination; 404 when none', async () => {
    const site = await newSite();
    const [guide, reference] = site.siteSpaces;
    const c = site.admin.client;
    await c.post(`${site.url}/redirects`, {
      source: '/old-ref',
      destination: { kind: 'site-space', siteSpaceId: reference?.id },
    });
    await c.post(`${site.url}/redirects`, {
      source: '/old-home',
      destination: { kind: 'site-space', siteSpaceId: guide?.id },
    });
    await c.post(`${site.url}/redirects`, {
      source: '/ext',
      destination: { kind: 'external', url: 'https://acme.test/x' },
    });
    const base = `http://bindery.test/sites/${site.orgId}/docs`;
    const ref = await c.get(`${site.url}/redirect?source=/old-ref`);
    expect(ref.status).toBe(200);
    expect(ref.body).toMatchObject({ redirect: { source: '/old-ref' }, target: `${base}/reference` });
    expect((await c.get(`${site.url}/redirect?source=/old-home`)).body.target).toBe(base);
    expect((await c.get(`${site.url}/redirect?source=/ext`)).body.target).toBe('https://acme.test/x');
    const missing = await c.get(`${site.url}/redirect?source=/nothing-here`);
    expect(missing.status).toBe(404);
    expect((await c.get(`${site.url}/redirect`)).status).toBe(400);

    // A section destination; the target follows the paths as they change.
    const section = await c.post(`${site.url}/sections`, {
      spaceId: (await c.post(`/v1/orgs/${site.orgId}/spaces`, { title: 'API' })).body.id,
      title: 'API',
    });
    await c.post(`${site.url}/redirects`, {
      source: '/api-old',
      destination: { kind: 'site-section', siteSectionId: section.body.id },
    });
    expect((await c.get(`${site.url}/redirect?source=/api-old`)).body.target).toBe(`${base}/api`);
    await c.patch(`${site.url}/sections/${section.body.id}`, { path: 'v2' });
    expect((await c.get(`${site.url}/redirect?source=/api-old`)).body.target).toBe(`${base}/v2`);
    // The site space now lives in the first (default) section: same URL, since that section is the default.
    expect((await c.get(`${site.url}/redirect?source=/old-ref`)).body.target).toBe(`${base}/reference`);

    // Deleting the destination deletes its redirects.
    await c.delete(`${site.url}/sections/${section.body.id}`);
    expect((await c.get(`${site.url}/redirect?source=/api-old`)).status).toBe(404);
    await c.delete(`${site.url}/site-spaces/${reference?.id}`);
    expect((await c.get(`${site.url}/redirect?source=/old-ref`)).status).toBe(404);
    expect((await c.get(`${site.url}/redirects`)).body.count).toBe(2);
  });

  it('readers list and resolve; changing needs create; outsiders 404', async () => {
    const site = await newSite();
    const destination = { kind: 'site-space', siteSpaceId: site.siteSpaces[0]?.id };
    const r = await site.admin.client.post(`${site.url}/redirects`, { source: '/abc', destination });
    const reader = await h.member(site.orgId, 'read');
    expect((await reader.client.get(`${site.url}/redirects`)).status).toBe(200);
    expect((await reader.client.get(`${site.url}/redirect?source=/abc`)).status).toBe(200);
    expect((await reader.client.post(`${site.url}/redirects`, { source: '/x1', destination })).status).toBe(403);
    expect((await reader.client.patch(`${site.url}/redirects/${r.body.id}`, { source: '/x1' })).status).toBe(403);
    expect((await reader.client.delete(`${site.url}/redirects/${r.body.id}`)).status).toBe(403);
    const creator = await h.member(site.orgId, 'create');
    expect((await creator.client.post(`${site.url}/redirects`, { source: '/x1', destination })).status).toBe(201);
    const outsider = await h.user();
    expect((await outsider.client.get(`${site.url}/redirects`)).status).toBe(404);
    expect((await outsider.client.get(`${site.url}/redirect?source=/abc`)).status).toBe(404);
  });
});

describe('share links', () => {
  const keyOf = (url: string) => new URL(url).searchParams.get('share') as string;

  it('lifecycle: create with a secret key, list, rename, deactivate (no longer resolves), delete', async () => {
    const site = await newSite({ visibility: 'share-link' });
    await site.admin.client.post(`${site.url}/publish`);
    const c = site.admin.client;
    const res = await c.post(`${site.url}/share-links`, { name: 'Partners' });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${site.url}/share-links/${res.body.id}`);
    expect(res.body).toMatchObject({ object: 'share-link', name: 'Partners', active: true });
    const key = keyOf(res.body.urls.published);
    expect(key.length).toBeGreaterThanOrEqual(20);
    expect(res.body.urls.published).toBe(`http://bindery.test/sites/${site.orgId}/docs?share=${key}`);
    // The key appears nowhere else.
    expect(JSON.stringify(res.body).split(key)).toHaveLength(2);
    const second = await c.post(`${site.url}/share-links`, { name: '' });
    expect(second.status).toBe(201);
    expect(keyOf(second.body.urls.published)).not.toBe(key);

    const list = await c.get(`${site.url}/share-links`);
    expect(list.body.count).toBe(2);
    expect(list.body.items.map((l: { id: string }) => l.id)).toEqual([res.body.id, second.body.id]);
    expect((await c.get(`${site.url}/share-links?limit=1`)).body.next).toBeDefined();

    expect((await c.get(`${site.url}/site-spaces?shareKey=${key}`)).status).toBe(200);
    expect((await c.get(`${site.url}/redirect?source=/nope&shareKey=${key}`)).status).toBe(404);
    const renamed = await c.patch(`${site.url}/share-links/${res.body.id}`, { name: 'Customers' });
    expect(renamed.body).toMatchObject({ name: 'Customers', active: true });
    expect(keyOf(renamed.body.urls.published)).toBe(key);
    const off = await c.patch(`${site.url}/share-links/${res.body.id}`, { active: false });
    expect(off.body.active).toBe(false);
    expect((await c.get(`${site.url}/site-spaces?shareKey=${key}`)).status).toBe(400);
    expect((await c.get(`${site.url}/published?shareKey=${key}`)).status).toBe(400);
    expect((await c.get(`${site.url}/redirect?source=/nope&shareKey=${key}`)).status).toBe(400);
    const on = await c.patch(`${site.url}/share-links/${res.body.id}`, { active: true });
    expect(on.body.active).toBe(true);
    expect((await c.get(`${site.url}/published?shareKey=${key}`)).status).toBe(200);
    expect((await c.patch(`${site.url}/share-links/${res.body.id}`, {})).status).toBe(400);

    expect((await c.delete(`${site.url}/share-links/${res.body.id}`)).status).toBe(204);
    expect((await c.delete(`${site.url}/share-links/${res.body.id}`)).status).toBe(404);
    expect((await c.get(`${site.url}/published?shareKey=${key}`)).status).toBe(400);
    expect((await c.get(`${site.url}/share-links`)).body.count).toBe(1);
  });

  it('redirect targets of a share-link site carry the share key', async () => {
    const site = await newSite({ visibility: 'share-link' });
    const c = site.admin.client;
    const link = await c.post(`${site.url}/share-links`, { name: 'x' });
    const key = keyOf(link.body.urls.published);
    await c.post(`${site.url}/redirects`, {
      source: '/old',
      destination: { kind: 'site-space', siteSpaceId: site.siteSpaces[1]?.id },
    });
    const res = await c.get(`${site.url}/redirect?source=/old&shareKey=${key}`);
    expect(res.body.target).toBe(`http://bindery.test/sites/${site.orgId}/docs/reference?share=${key}`);
  });

  it.each([
    ['n'.repeat(50), 201],
    ['n'.repeat(51), 400],
  ])('name of %#: 50 -> 201, 51 -> 400 (create and update)', async (name, status) => {
    const site = await newSite();
    const res = await site.admin.client.post(`${site.url}/share-links`, { name });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('name');
    const ok = await site.admin.client.post(`${site.url}/share-links`, { name: 'ok' });
    expect((await site.admin.client.patch(`${site.url}/share-links/${ok.body.id}`, { name })).status).toBe(
      status === 201 ? 200 : 400,
    );
    expect((await site.admin.client.post(`${site.url}/share-links`, {})).status).toBe(400);
  });

  it('only organization admins manage share links; outsiders 404', async () => {
    const site = await newSite();
    const link = await site.admin.client.post(`${site.url}/share-links`, { name: 'x' });
    for (const role of ['read', 'create'] as const) {
      const member = await h.member(site.orgId, role);
      expect((await member.client.get(`${site.url}/share-links`)).status).toBe(403);
      expect((await member.client.post(`${site.url}/share-links`, { name: 'y' })).status).toBe(403);
      expect((await member.client.patch(`${site.url}/share-links/${link.body.id}`, { active: false })).status).toBe(
        403,
      );
      expect((await member.client.delete(`${site.url}/share-links/${link.body.id}`)).status).toBe(403);
    }
    expect((await (await h.user()).client.get(`${site.url}/share-links`)).status).toBe(404);
    const scoped = await h.member(site.orgId, 'admin', { scopes: ['site:auth:read'] });
    expect((await scoped.client.get(`${site.url}/share-links`)).status).toBe(200);
    expect((await scoped.client.post(`${site.url}/share-links`, { name: 'y' })).status).toBe(403);
  });
});
