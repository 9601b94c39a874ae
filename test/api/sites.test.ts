import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const sitesUrl = (orgId: string) => `/v1/orgs/${orgId}/sites`;

async function newSpace(orgId: string, admin: TestUser, title = 'Guide'): Promise<string> {
  const res = await admin.client.post(`/v1/orgs/${orgId}/spaces`, { title });
  expect(res.status).toBe(201);
  return res.body.id;
}

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
      .set({ custom_hostname: 'docs.list.test' })
      .where('id', '=', org.id)
      .execute();
    const listed = (await c.get(sitesUrl(org.id))).body.items;
    const read = await Promise.all(
      listed.map(async (s: { id: string }) => (await c.get(`${sitesUrl(org.id)}/${s.id}`)).body),
    );
    expect(listed).toEqual(read);
    expect(listed.map((s: { siteSpaces: number }) => s.siteSpaces)).toEqual([1, 0, 1]);
    expect(listed[1].urls.published).toBe('https://docs.list.test/beta');
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
    await h.db
      .updateTable('organizations')
      .set({ custom_hostname: 'docs.acme.test' })
      .where('id', '=', org.id)
      .execute();
    const custom = await org.admin.client.get(url);
    expect(custom.body.hostname).toBe('docs.acme.test');
    expect(custom.body.urls.published).toBe('https://docs.acme.test/handbook');

    const proxied = await org.admin.client.patch(url, { proxy: 'example.com/docs' });
    expect(proxied.status).toBe(200);
    expect(proxied.body.proxy).toEqual({ origin: 'example.com/docs', target: 'https://docs.acme.test/handbook' });
    expect(proxied.body.urls.published).toBe('https://example.com/docs');
    const spaced = await org.admin.client.get(`${url}/site-spaces`);
    expect(spaced.body.items[0].urls.published).toBe('https://example.com/docs');
    for (const bad of ['https://example.com/docs', 'example.com', 'not a url']) {
      const res = await org.admin.client.patch(url, { proxy: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain('proxy');
    }
    const removed = await org.admin.client.patch(url, { proxy: null });
    expect(removed.body.proxy).toBeUndefined();
    expect(removed.body.urls.published).toBe('https://docs.acme.test/handbook');

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

describe('published site profile', () => {
  it('site spaces when the site has no sections; sections and groups in order when it has', async () => {
    const org = await h.org();
    const a = await newSpace(org.id, org.admin, 'Alpha');
    const b = await newSpace(org.id, org.admin, 'Beta');
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [a, b] });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    await org.admin.client.post(`${url}/publish`);
    const flat = await org.admin.client.get(`${url}/published`);
    expect(flat.status).toBe(200);
    expect(flat.body.object).toBe('published-content-site');
    expect(flat.body.site.id).toBe(site.body.id);
    expect(flat.body.structure.type).toBe('siteSpaces');
    expect(flat.body.structure.structure.map((s: any) => [s.space.id, s.default, s.urls.published])).toEqual([
      [a, true, `http://bindery.test/sites/${org.id}/docs`],
      [b, false, `http://bindery.test/sites/${org.id}/docs/beta`],
    ]);
    const ids = flat.body.structure.structure.map((s: any) => s.id);
    expect(Object.keys(flat.body.customizations.siteSpaces).sort()).toEqual([...ids].sort());
    expect(flat.body.customizations.site.styling.theme).toBe('clean');

    const section = await org.admin.client.post(`${url}/sections`, { spaceId: b, title: 'Reference' });
    const group = await org.admin.client.post(`${url}/section-groups`, { title: 'More', sections: [section.body.id] });
    const nested = await org.admin.client.get(`${url}/published`);
    expect(nested.body.structure.type).toBe('sections');
    const [first, second] = nested.body.structure.structure;
    expect(first).toMatchObject({ object: 'site-section', title: 'Docs', default: true });
    expect(first.siteSpaces.map((s: any) => s.space.id)).toEqual([a, b]);
    expect(first.urls.published).toBe(`http://bindery.test/sites/${org.id}/docs`);
    expect(second).toMatchObject({ object: 'site-section-group', id: group.body.id, title: 'More' });
    expect(second.sections[0]).toMatchObject({ id: section.body.id, path: 'reference', sectionGroup: group.body.id });
    expect(second.sections[0].urls.published).toBe(`http://bindery.test/sites/${org.id}/docs/reference`);
    expect(second.sections[0].siteSpaces[0].urls.published).toBe(`http://bindery.test/sites/${org.id}/docs/reference`);
  });

  it('shareKey resolves the published URLs of a share-link site; an inactive or foreign key is a 400', async () => {
    const org = await h.org();
    const a = await newSpace(org.id, org.admin, 'Alpha');
    const site = await org.admin.client.post(sitesUrl(org.id), {
      title: 'Docs',
      visibility: 'share-link',
      spaces: [a],
    });
    const url = `${sitesUrl(org.id)}/${site.body.id}`;
    await org.admin.client.post(`${url}/publish`);
    const link = await org.admin.client.post(`${url}/share-links`, { name: 'Partners' });
    const key = new URL(link.body.urls.published).searchParams.get('share');
    expect(key).toBeTruthy();
    const plain = await org.admin.client.get(`${url}/published`);
    expect(plain.body.site.urls.published).toBe(`http://bindery.test/sites/${org.id}/docs`);
    const keyed = await org.admin.client.get(`${url}/published?shareKey=${key}`);
    expect(keyed.status).toBe(200);
    expect(keyed.body.site.urls.published).toBe(`http://bindery.test/sites/${org.id}/docs?share=${key}`);
    expect(keyed.body.structure.structure[0].urls.published).toBe(
      `http://bindery.test/sites/${org.id}/docs?share=${key}`,
    );
    const listed = await org.admin.client.get(`${url}/site-spaces?shareKey=${key}`);
    expect(listed.body.items[0].urls.published).toContain(`share=${key}`);

    const unknown = await org.admin.client.get(`${url}/published?shareKey=nope`);
    expect(unknown.status).toBe(400);
    expect(unknown.body.error.message).toContain('shareKey');
    const other = await org.admin.client.post(sitesUrl(org.id), { title: 'Other', visibility: 'share-link' });
    const otherLink = await org.admin.client.post(`${sitesUrl(org.id)}/${other.body.id}/share-links`, { name: 'x' });
    const otherKey = new URL(otherLink.body.urls.published).searchParams.get('share');
    expect((await org.admin.client.get(`${url}/published?shareKey=${otherKey}`)).status).toBe(400);
    await org.admin.client.patch(`${url}/share-links/${link.body.id}`, { active: false });
    expect((await org.admin.client.get(`${url}/published?shareKey=${key}`)).status).toBe(400);
    expect((await org.admin.client.get(`${url}/site-spaces?shareKey=${key}`)).status).toBe(400);
  });

  it('is visible to readers, not to outsiders', async () => {
    const org = await h.org();
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const url = `${sitesUrl(org.id)}/${site.body.id}/published`;
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(url)).status).toBe(200);
    expect((await (await h.user()).client.get(url)).status).toBe(404);
  });
});

describe('customization', () => {
  it('site: defaults, PUT replaces what is set, validated against the customization object', async () => {
    const org = await h.org();
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs' });
    const url = `${sitesUrl(org.id)}/${site.body.id}/customization`;
    const initial = await org.admin.client.get(url);
    expect(initial.status).toBe(200);
    expect(initial.body).toMatchObject({ styling: { theme: 'clean' }, themes: { default: 'system', toggeable: true } });

    const put = await org.admin.client.put(url, {
      title: 'Handbook',
      styling: { theme: 'bold', primaryColor: { light: '#ff0000', dark: '#00ff00' } },
      header: {
        links: [{ title: 'Home', style: 'link', to: { kind: 'url', url: 'https://acme.test' }, links: [] }],
      },
      announcement: { enabled: true, message: 'Hello', style: 'info' },
      pdf: { enabled: true },
      ai: { pageLinkSummaries: { enabled: true } },
      git: { showEditLink: true },
      privacyPolicy: { url: 'https://acme.test/privacy' },
    });
    expect(put.status).toBe(200);
    expect(put.body).toMatchObject({
      title: 'Handbook',
      styling: { theme: 'bold', primaryColor: { light: '#ff0000', dark: '#00ff00' }, corners: 'rounded' },
      header: { preset: 'default', links: [{ title: 'Home' }] },
      announcement: { enabled: true, message: 'Hello', style: 'info' },
      pdf: { enabled: true },
      ai: { mode: 'search', pageLinkSummaries: { enabled: true } },
      git: { showEditLink: true },
      privacyPolicy: { url: 'https://acme.test/privacy' },
    });
    expect((await org.admin.client.get(url)).body).toEqual(put.body);
    // A second PUT replaces: what is not set falls back to the defaults.
    const again = await org.admin.client.put(url, { pdf: { enabled: false } });
    expect(again.body.title).toBeUndefined();
    expect(again.body.styling.theme).toBe('clean');

    for (const [body, field] of [
      [{ styling: { theme: 'neon' } }, 'theme'],
      [{ styling: { primaryColor: { light: 'red', dark: '#000' } } }, 'light'],
      [{ unknownKey: true }, 'unknownKey'],
      [{ title: 'x' }, 'title'],
      [{ privacyPolicy: { url: 'not a url' } }, 'url'],
    ] as const) {
      const res = await org.admin.client.put(url, body);
      expect(res.status).toBe(400);
      expect(res.body.error.message).toContain(field);
    }
    const reader = await h.member(org.id, 'read');
    expect((await reader.client.get(url)).status).toBe(200);
    expect((await reader.client.put(url, {})).status).toBe(403);
  });

  it('site space: overrides merge over the site, null drops one, DELETE drops all', async () => {
    const org = await h.org();
    const space = await newSpace(org.id, org.admin);
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [space] });
    const base = `${sitesUrl(org.id)}/${site.body.id}`;
    const siteSpace = (await org.admin.client.get(`${base}/site-spaces`)).body.items[0];
    const url = `${base}/site-spaces/${siteSpace.id}/customization`;
    await org.admin.client.put(`${base}/customization`, { styling: { theme: 'muted' }, pdf: { enabled: true } });

    expect((await org.admin.client.get(url)).body.styling.theme).toBe('muted');
    const patched = await org.admin.client.patch(url, { styling: { corners: 'straight' }, title: 'Variant' });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      title: 'Variant',
      styling: { theme: 'muted', corners: 'straight' },
      pdf: { enabled: true },
    });
    const more = await org.admin.client.patch(url, { styling: { corners: null }, pdf: { enabled: false } });
    expect(more.body.styling.corners).toBe('rounded');
    expect(more.body.pdf.enabled).toBe(false);
    expect(more.body.title).toBe('Variant');
    const listed = await org.admin.client.get(`${base}/site-spaces`);
    expect(listed.body.items[0].hasAdvancedCustomizationFeature).toBe(true);
    const published = await org.admin.client.get(`${base}/published`);
    expect(published.body.customizations.siteSpaces[siteSpace.id]).toEqual(more.body);
    expect(published.body.customizations.site.pdf.enabled).toBe(true);

    // null drops a boolean override (it is not coerced to false).
    const dropped = await org.admin.client.patch(url, { pdf: { enabled: null } });
    expect(dropped.body.pdf.enabled).toBe(true);
    expect((await org.admin.client.delete(url)).status).toBe(204);
    const reset = await org.admin.client.get(url);
    expect(reset.body.title).toBeUndefined();
    expect(reset.body.pdf.enabled).toBe(true);
    expect((await org.admin.client.patch(url, { styling: { theme: 'neon' } })).status).toBe(400);
    expect((await org.admin.client.get(`${base}/site-spaces/nope/customization`)).status).toBe(404);
  });
});

describe('permissions aggregate', () => {
  it('lists users with access through the site spaces, with the highest role and its origin', async () => {
    const org = await h.org();
    const open = await newSpace(org.id, org.admin, 'Open');
    const closed = await newSpace(org.id, org.admin, 'Closed');
    await org.admin.client.patch(`/v1/spaces/${closed}`, { defaultLevel: null });
    const reader = await h.member(org.id, 'read');
    const guest = await h.member(org.id, null);
    await org.admin.client.post(`/v1/spaces/${closed}/permissions`, {
      role: 'edit',
      users: [reader.user.id, guest.user.id],
    });
    const site = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [open, closed] });
    const url = `${sitesUrl(org.id)}/${site.body.id}/permissions/aggregate`;
    const res = await reader.client.get(url);
    expect(res.status).toBe(200);
    const byUser = Object.fromEntries(res.body.items.map((e: any) => [e.user.id, [e.permission, e.origin]]));
    expect(byUser).toEqual({
      [org.admin.user.id]: ['admin', { type: 'space', space: open }],
      [reader.user.id]: ['edit', { type: 'space', space: closed }],
      [guest.user.id]: ['edit', { type: 'space', space: closed }],
    });
    expect(res.body.count).toBe(3);
    const edits = await reader.client.get(`${url}?role=edit`);
    expect(edits.body.count).toBe(2);
    const first = await reader.client.get(`${url}?limit=1`);
    const rest = await reader.client.get(`${url}?limit=5&page=${first.body.next.page}`);
    expect([...first.body.items, ...rest.body.items].map((e: any) => e.user.id)).toEqual(
      res.body.items.map((e: any) => e.user.id),
    );
    expect((await (await h.user()).client.get(url)).status).toBe(404);
  });
});
