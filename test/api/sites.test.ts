/**
 * Sites: create (spaces, defaults, limits, unique basename), validation, listing and its filters,
 * who may do what, token scopes, publishing and published URLs, updates and delete.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { newSpace, sitesUrl } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

describe('sites', () => {
  it('creates (201, Location) with spaces as site spaces, the first the default; reads it back', async () => {
    const org = await h.org();
    const a = await newSpace(org.id, org.admin, 'Getting started');
    const b = await newSpace(org.id, org.admin, 'API reference');
    const res = await org.admin.client.post(sitesUrl(org.id), {
      title: 'Docs',
      visibility: 'unlisted',
      spaces: [a, b],
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${sitesUrl(org.id)}/${res.body.id}`);
    expect(res.body).toMatchObject({
      object: 'site',
      type: 'basic',
      title: 'Docs',
      basename: 'docs',
      visibility: 'unlisted',
      published: false,
      siteSpaces: 2,
      adaptiveContent: { enabled: false },
      ads: { status: 'pending', submittable: false },
      permissions: { admin: true, create: true },
    });
    expect(res.body.urls.published).toBeUndefined();
    const got = await org.admin.client.get(`${sitesUrl(org.id)}/${res.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body.siteSpaces).toBe(2);
    const spaces = await org.admin.client.get(`${sitesUrl(org.id)}/${res.body.id}/site-spaces`);
    expect(spaces.body.items.map((s: any) => [s.space.id, s.default, s.path])).toEqual([
      [a, true, 'getting-started'],
      [b, false, 'api-reference'],
    ]);
  });

  it('defaults: type basic, visibility public, a free basename', async () => {
    const org = await h.org();
    const one = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const two = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const three = await org.admin.client.post(sitesUrl(org.id), {});
    expect([one.body.basename, two.body.basename]).toEqual(['docs', 'docs-2']);
    expect(one.body).toMatchObject({ type: 'basic', visibility: 'public', siteSpaces: 0 });
    expect(three.status).toBe(201);
    expect(three.body.title).toBeTruthy();
  });

  it.each([
    ['a', 400],
    ['ab', 201],
    ['a'.repeat(128), 201],
    ['a'.repeat(129), 400],
  ])('title %j -> %i on create, same limit on update', async (title, status) => {
    const org = await h.org();
    const res = await org.admin.client.post(sitesUrl(org.id), { title });
    expect(res.status).toBe(status);
    if (status === 400) expect(res.body.error.message).toContain('title');
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'ok' });
    const patched = await org.admin.client.patch(`${sitesUrl(org.id)}/${site.body.id}`, { title });
    expect(patched.status).toBe(status === 201 ? 200 : 400);
    if (status === 201) expect(patched.body.title).toBe(title);
  });

  it.each([
    ['', 400],
    ['a', 200],
    ['b'.repeat(100), 200],
    ['b'.repeat(101), 400],
  ])('basename %j -> %i', async (basename, status) => {
    const org = await h.org();
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const res = await org.admin.client.patch(`${sitesUrl(org.id)}/${site.body.id}`, { basename });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.basename).toBe(basename);
    else expect(res.body.error.message).toContain('basename');
  });

  it('basename is unique in the organization (409)', async () => {
    const org = await h.org();
    await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const other = await org.admin.client.post(sitesUrl(org.id), { title: 'Other' });
    const res = await org.admin.client.patch(`${sitesUrl(org.id)}/${other.body.id}`, { basename: 'docs' });
    expect(res.status).toBe(409);
  });

  it('rejects unknown body fields, bad enums and bad spaces', async () => {
    const org = await h.org();
    const unknown = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', color: 'red' });
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('color');
    expect((await org.admin.client.post(sitesUrl(org.id), { type: 'huge' })).status).toBe(400);
    expect((await org.admin.client.post(sitesUrl(org.id), { visibility: 'secret' })).status).toBe(400);
    expect((await org.admin.client.post(sitesUrl(org.id), { spaces: ['nope'] })).status).toBe(404);
    // A space of another organization does not exist here.
    const other = await h.org();
    const foreign = await newSpace(other.id, other.admin);
    expect((await org.admin.client.post(sitesUrl(org.id), { spaces: [foreign] })).status).toBe(404);
  });

  it('adding a space needs read access to it (404 otherwise)', async () => {
    const org = await h.org();
    const creator = await h.member(org.id, 'create');
    const hidden = await newSpace(org.id, org.admin, 'Secret');
    // Only explicit grants count on this space: the creator cannot read it.
    await org.admin.client.patch(`/v1/spaces/${hidden}`, { defaultLevel: null });
    const res = await creator.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [hidden] });
    expect(res.status).toBe(404);
    const site = await creator.client.post(sitesUrl(org.id), { title: 'Docs' });
    const add = await creator.client.post(`${sitesUrl(org.id)}/${site.body.id}/site-spaces`, { spaceId: hidden });
    expect(add.status).toBe(404);
  });

  it('lists with paging and the space, title, published and type filters', async () => {
    const org = await h.org();
    const space = await newSpace(org.id, org.admin);
    const c = org.admin.client;
    const alpha = await c.post(sitesUrl(org.id), { title: 'Alpha docs', type: 'premium', spaces: [space] });
    const beta = await c.post(sitesUrl(org.id), { title: 'Beta', type: 'ultimate' });
    const gamma = await c.post(sitesUrl(org.id), { title: 'ALPHABET', spaces: [space] });
    await c.post(`${sitesUrl(org.id)}/${beta.body.id}/publish`);
    const ids = (res: { body: { items: Array<{ id: string }> } }) => res.body.items.map((s) => s.id);

    const page1 = await c.get(`${sitesUrl(org.id)}?limit=2`);
    expect(page1.body.count).toBe(3);
    expect(ids(page1)).toEqual([alpha.body.id, beta.body.id]);
    const page2 = await c.get(`${sitesUrl(org.id)}?limit=2&page=${page1.body.next.page}`);
    expect(ids(page2)).toEqual([gamma.body.id]);
    expect(page2.body.next).toBeUndefined();

    expect(ids(await c.get(`${sitesUrl(org.id)}?space=${space}`))).toEqual([alpha.body.id, gamma.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?title=alpha`))).toEqual([alpha.body.id, gamma.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?published=true`))).toEqual([beta.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?published=false`))).toEqual([alpha.body.id, gamma.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?type=premium`))).toEqual([alpha.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?type=premium&type=ultimate`))).toEqual([alpha.body.id, beta.body.id]);
    expect(ids(await c.get(`${sitesUrl(org.id)}?type=basic&title=alpha`))).toEqual([gamma.body.id]);
    expect((await c.get(`${sitesUrl(org.id)}?type=huge`)).status).toBe(400);
    expect((await c.get(`${sitesUrl(org.id)}?limit=0`)).body).toEqual({ items: [], count: 3 });

    // Listed Sites are the Site objects a read gives: site-space counts, and the organization's
    // (custom) hostname in their URLs, which the list reads with its count.
    await h.db
      .updateTable('organizations')
      .set({ custom_hostname: `docs-${org.id.toLowerCase()}.list.test` })
      .where('id', '=', org.id)
      .execute();
    const listed = (await c.get(sitesUrl(org.id))).body.items;
    const read = await Promise.all(
      listed.map(async (s: { id: string }) => (await c.get(`${sitesUrl(org.id)}/${s.id}`)).body),
    );
    expect(listed).toEqual(read);
    expect(listed.map((s: { siteSpaces: number }) => s.siteSpaces)).toEqual([1, 0, 1]);
    expect(listed[1].urls.published).toBe(`https://docs-${org.id.toLowerCase()}.list.test/beta`);
  });

  it('who may do what: outsiders and guests 404, readers read, create changes, admin deletes and publishes', async () => {
    const org = await h.org();
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    const outsider = await h.user();
    const guest = await h.member(org.id, null);
    const reader = await h.member(org.id, 'read');
    const creator = await h.member(org.id, 'create');

    for (const who of [outsider, guest]) {
      expect((await who.client.get(url)).status).toBe(404);
      expect((await who.client.get(sitesUrl(org.id))).status).toBe(404);
      expect((await who.client.patch(url, { title: 'Nope' })).status).toBe(404);
      expect((await who.client.delete(url)).status).toBe(404);
    }
    const read = await reader.client.get(url);
    expect(read.status).toBe(200);
    expect(read.body.permissions).toMatchObject({ view: true, create: false, admin: false });
    expect((await reader.client.get(sitesUrl(org.id))).body.count).toBe(1);
    expect((await reader.client.post(sitesUrl(org.id), { title: 'Mine' })).status).toBe(403);
    expect((await reader.client.patch(url, { title: 'Nope' })).status).toBe(403);
    expect((await reader.client.post(`${url}/publish`)).status).toBe(403);

    expect((await creator.client.post(sitesUrl(org.id), { title: 'Mine' })).status).toBe(201);
    expect((await creator.client.patch(url, { title: 'Changed' })).status).toBe(200);
    expect((await creator.client.post(`${url}/publish`)).status).toBe(403);
    expect((await creator.client.delete(url)).status).toBe(403);

    // Another organization's site is not found through this one.
    const other = await h.org();
    expect((await other.admin.client.get(`${sitesUrl(other.id)}/${site.body.id}`)).status).toBe(404);

    expect((await org.admin.client.delete(url)).status).toBe(204);
    expect((await org.admin.client.get(url)).status).toBe(404);
  });

  it('token scopes: site:read reads, writing needs site:write', async () => {
    const org = await h.org();
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    const member = await h.member(org.id, 'admin', { scopes: ['site:read'] });
    expect((await member.client.get(url)).status).toBe(200);
    const res = await member.client.patch(url, { title: 'Nope' });
    expect(res.status).toBe(403);
    expect(res.body.error.message).toContain('site:write');
    expect((await member.client.post(`${url}/publish`)).status).toBe(403);
  });

  it('publishes and unpublishes; published URLs follow basename, hostname and proxy', async () => {
    const org = await h.org();
    const space = await newSpace(org.id, org.admin);
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [space] });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    const published = await org.admin.client.post(`${url}/publish`);
    expect(published.status).toBe(200);
    expect(published.body.published).toBe(true);
    expect(published.body.urls.published).toBe(`http://bindery.test/sites/${org.id}/docs`);
    expect(published.body.ads).toEqual({ status: 'pending', submittable: true });

    const renamed = await org.admin.client.patch(url, { basename: 'handbook' });
    expect(renamed.body.urls.published).toBe(`http://bindery.test/sites/${org.id}/handbook`);
    const spaces = await org.admin.client.get(`${url}/site-spaces`);
    expect(spaces.body.items[0].urls.published).toBe(`http://bindery.test/sites/${org.id}/handbook`);

    // The organization's hostname names it; a custom hostname replaces the address.
    await h.db
      .updateTable('organizations')
      .set({ hostname: `acme${org.id.slice(0, 6).toLowerCase()}` })
      .where('id', '=', org.id)
      .execute();
    const withHost = await org.admin.client.get(url);
    expect(withHost.body.urls.published).toBe(
      `http://bindery.test/sites/acme${org.id.slice(0, 6).toLowerCase()}/handbook`,
    );
    const host = `docs-${org.id.toLowerCase()}.acme.test`;
    await h.db.updateTable('organizations').set({ custom_hostname: host }).where('id', '=', org.id).execute();
    const custom = await org.admin.client.get(url);
    expect(custom.body.hostname).toBe(host);
    expect(custom.body.urls.published).toBe(`https://${host}/handbook`);

    // A proxy is on a host of the organization's own (src/sites/hosts.ts; test/published/tenancy.test.ts).
    const proxied = await org.admin.client.patch(url, { proxy: `${host}/docs` });
    expect(proxied.status).toBe(200);
    expect(proxied.body.proxy).toEqual({ origin: `${host}/docs`, target: `https://${host}/handbook` });
    expect(proxied.body.urls.published).toBe(`https://${host}/docs`);
    const spaced = await org.admin.client.get(`${url}/site-spaces`);
    expect(spaced.body.items[0].urls.published).toBe(`https://${host}/docs`);
    for (const bad of ['https://example.com/docs', 'example.com', 'not a url']) {
      const res = await org.admin.client.patch(url, { proxy: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('proxy');
    }
    const removed = await org.admin.client.patch(url, { proxy: null });
    expect(removed.body.proxy).toBeUndefined();
    expect(removed.body.urls.published).toBe(`https://${host}/handbook`);

    const unpublished = await org.admin.client.post(`${url}/unpublish`);
    expect(unpublished.body.published).toBe(false);
    expect(unpublished.body.urls.published).toBeUndefined();
    expect((await org.admin.client.get(`${url}/site-spaces`)).body.items[0].urls.published).toBeUndefined();
  });

  it('updates visibility and adaptive content; deleting a site removes its site spaces', async () => {
    const org = await h.org();
    const space = await newSpace(org.id, org.admin);
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [space] });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    const res = await org.admin.client.patch(url, { visibility: 'share-link', adaptiveContent: { enabled: true } });
    expect(res.body).toMatchObject({ visibility: 'share-link', adaptiveContent: { enabled: true } });
    expect((await org.admin.client.patch(url, { adaptiveContent: {} })).status).toBe(400);
    expect((await org.admin.client.delete(url)).status).toBe(204);
    expect((await org.admin.client.get(`${sitesUrl(org.id)}?space=${space}`)).body.count).toBe(0);
    // The space itself stays.
    expect((await org.admin.client.get(`/v1/spaces/${space}`)).status).toBe(200);
  });
});
