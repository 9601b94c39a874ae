/**
 * Sites, beyond the site itself: the published site profile (structure, share keys, access), site
 * and site-space customization, and the permissions aggregate.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { newSpace, sitesUrl } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

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
