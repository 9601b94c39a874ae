/**
 * Site external links (add, change, delete) and the generic structure sort: their place in the
 * structure's order, limits, bad input, events and access.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';
import { type Site, newSite as siteIn } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A site in sections: "Docs" (site spaces A, B), "API" (site space C), and the API section's id. */
async function sectioned(): Promise<Site & { api: string; docs: string }> {
  const site = await siteIn(h, { spaces: ['A', 'B'], published: true });
  const res = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('C'), title: 'API' });
  expect(res.status).toBe(201);
  const all = (await site.admin.client.get(`${site.url}/sections`)).body.items as Array<{ id: string }>;
  return { ...site, api: res.body.id, docs: all[0]?.id as string };
}

type Node = { object: string; id: string; title: string; children?: Node[] };
const structure = async (site: Site) => {
  const res = await site.admin.client.get(`${site.url}/structure`);
  expect(res.status).toBe(200);
  return res.body as { type: string; structure: Node[] };
};
/** The section `id` as listed. */
const sectionOf = async (site: Site, id: string) =>
  (
    (await site.admin.client.get(`${site.url}/sections`)).body.items as Array<{
      id: string;
      siteSpaces: Array<{ id: string }>;
    }>
  ).find((s) => s.id === id) as { id: string; siteSpaces: Array<{ id: string }> };
const titles = (nodes: Node[]): string[] =>
  nodes.map((n) => (n.children ? `${n.title}[${titles(n.children).join(',')}]` : n.title));

const link = { title: 'Status', url: 'https://status.acme.test/' };

describe('site external links', () => {
  it('adds (201, Location) at the end of the top level, changes, moves into a group and out, deletes (205, then 204)', async () => {
    const site = await sectioned();
    const added = await site.admin.client.post(`${site.url}/external-links`, {
      ...link,
      description: 'Service status',
      icon: 'signal',
      localizedTitle: { fr: 'État' },
    });
    expect(added.status).toBe(201);
    expect(added.headers.location).toBe(`http://bindery.test${site.url}/external-links/${added.body.id}`);
    expect(added.body).toEqual({
      object: 'site-external-link',
      id: added.body.id,
      title: 'Status',
      description: 'Service status',
      icon: 'signal',
      localizedTitle: { fr: 'État' },
      url: 'https://status.acme.test/',
      draft: false,
    });
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API', 'Status']);

    const group = await site.admin.client.post(`${site.url}/section-groups`, { title: 'More', sections: [site.api] });
    expect(group.status).toBe(201);
    const moved = await site.admin.client.patch(`${site.url}/external-links/${added.body.id}`, {
      parent: group.body.id,
      title: 'Uptime',
      condition: 'visitor.claims.staff === true',
      draft: true,
      description: null,
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ sectionGroup: group.body.id, title: 'Uptime', draft: true });
    expect(moved.body.condition).toBe('visitor.claims.staff === true');
    expect(moved.body.description).toBeUndefined();
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'More[API,Uptime]']);
    const groupObject = (await site.admin.client.get(`${site.url}/section-groups`)).body.items[0];
    expect(groupObject.sections.map((s: Node) => s.title)).toEqual(['API']);
    expect(groupObject.children.map((s: Node) => s.object)).toEqual(['site-section', 'site-external-link']);

    // Back to the root: at its end; a condition of "" clears it.
    const back = await site.admin.client.patch(`${site.url}/external-links/${added.body.id}`, {
      parent: null,
      condition: '',
    });
    expect(back.status).toBe(200);
    expect(back.body.sectionGroup).toBeUndefined();
    expect(back.body.condition).toBeUndefined();
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'More[API]', 'Uptime']);

    // Deleting the group keeps the links that were in it, where it stood.
    await site.admin.client.patch(`${site.url}/external-links/${added.body.id}`, { parent: group.body.id });
    expect((await site.admin.client.delete(`${site.url}/section-groups/${group.body.id}`)).status).toBe(204);
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API', 'Uptime']);

    const minimal = await site.admin.client.request(
      'PATCH',
      `${site.url}/external-links/${added.body.id}`,
      { title: 'Status page' },
      { prefer: 'return=minimal' },
    );
    expect(minimal.status).toBe(204);
    expect(minimal.headers['preference-applied']).toBe('return=minimal');
    expect(minimal.body).toBe('');

    expect((await site.admin.client.delete(`${site.url}/external-links/${added.body.id}`)).status).toBe(205);
    expect((await site.admin.client.delete(`${site.url}/external-links/${added.body.id}`)).status).toBe(204);
    expect((await site.admin.client.patch(`${site.url}/external-links/${added.body.id}`, { title: 'Xy' })).status).toBe(
      404,
    );
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API']);
    // Each change is a structure change, in the audit log.
    const events = await auditEvents(site.admin.client, site.orgId, 'site.structure.updated');
    expect(events.length).toBeGreaterThanOrEqual(6);
  });

  it('needs a site in sections, and a parent that is a group of the site', async () => {
    const simple = await siteIn(h, { spaces: ['A'] });
    const res = await simple.admin.client.post(`${simple.url}/external-links`, link);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/sections/);
    const site = await sectioned();
    const other = await sectioned();
    const foreignGroup = await other.admin.client.post(`${other.url}/section-groups`, { title: 'G' });
    for (const parent of [foreignGroup.body.id, site.api, 'nope']) {
      const bad = await site.admin.client.post(`${site.url}/external-links`, { ...link, parent });
      expect(bad.status).toBe(400);
      expect(bad.body.error.message).toMatch(/body\/parent/);
    }
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API']);
  });

  it.each([
    ['javascript:alert(1)', 400],
    ['JaVaScRiPt:alert(1)', 400],
    ['data:text/html,<b>x</b>', 400],
    ['mailto:a@acme.test', 400],
    ['/relative', 400],
    ['ftp://acme.test/', 400],
    ['http://acme.test/', 201],
    ['HTTPS://acme.test/a?b=c#d', 201],
    [`https://acme.test/${'a'.repeat(2048 - 'https://acme.test/'.length)}`, 201],
    [`https://acme.test/${'a'.repeat(2049 - 'https://acme.test/'.length)}`, 400],
  ])('url %j -> %i', async (url, status) => {
    const site = await sectioned();
    const res = await site.admin.client.post(`${site.url}/external-links`, { title: 'Link', url });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
    if (status === 201) expect(res.body.url).toBe(url);
  });

  it.each([
    [{ title: 'A' }, 400],
    [{ title: 'Ab' }, 201],
    [{ title: 'a'.repeat(128) }, 201],
    [{ title: 'a'.repeat(129) }, 400],
    [{ title: 'Ok', description: 'd'.repeat(256) }, 201],
    [{ title: 'Ok', description: 'd'.repeat(257) }, 400],
    [{ title: 'Ok', icon: 'i'.repeat(51) }, 400],
    [{ title: 'Ok', condition: 'visitor.claims.a &&' }, 400],
    [{ title: 'Ok', condition: 'c'.repeat(1025) }, 400],
    [{ title: 'Ok', localizedTitle: { fr: 't'.repeat(129) } }, 400],
    [{ title: 'Ok', localizedTitle: { 'not a language': 'x' } }, 400],
    [{ title: 'Ok', unknown: true }, 400],
    [{ url: 'https://acme.test/' }, 400],
  ])('body %j -> %i', async (body, status) => {
    const site = await sectioned();
    const res = await site.admin.client.post(`${site.url}/external-links`, { url: 'https://acme.test/', ...body });
    expect(res.status, JSON.stringify(res.body)).toBe(status);
  });

  it('404 to outsiders and for another organization, 403 to readers, 201 to creators', async () => {
    const site = await sectioned();
    const other = await sectioned();
    const added = await site.admin.client.post(`${site.url}/external-links`, link);
    const outsider = await h.user();
    const reader = await h.member(site.orgId, 'read');
    const creator = await h.member(site.orgId, 'create');
    const path = `${site.url}/external-links/${added.body.id}`;
    for (const client of [outsider.client, other.admin.client]) {
      expect((await client.post(`${site.url}/external-links`, link)).status).toBe(404);
      expect((await client.patch(path, { title: 'Hacked' })).status).toBe(404);
      expect((await client.delete(path)).status).toBe(404);
    }
    expect((await reader.client.post(`${site.url}/external-links`, link)).status).toBe(403);
    expect((await reader.client.patch(path, { title: 'Hacked' })).status).toBe(403);
    expect((await reader.client.delete(path)).status).toBe(403);
    // Another site's link is not this site's.
    const foreign = await other.admin.client.post(`${other.url}/external-links`, link);
    expect(
      (await site.admin.client.patch(`${site.url}/external-links/${foreign.body.id}`, { title: 'Xy' })).status,
    ).toBe(404);
    expect((await site.admin.client.delete(`${site.url}/external-links/${foreign.body.id}`)).status).toBe(204);
    expect((await other.admin.client.get(`${other.url}/structure`)).body.structure).toHaveLength(3);
    expect((await creator.client.post(`${site.url}/external-links`, link)).status).toBe(201);
    expect((await site.admin.client.get(`${site.url}/structure`)).body.structure.map((n: Node) => n.title)).toEqual([
      'Docs',
      'API',
      'Status',
      'Status',
    ]);
  });
});

describe('sortSiteStructure', () => {
  const sort = (site: Site, body: unknown, headers: Record<string, string> = {}) =>
    site.admin.client.request('PATCH', `${site.url}/structure/sort`, body, headers);

  it('moves sections, groups and links among the top level, links and sections within a group, site spaces in their section', async () => {
    const site = await sectioned();
    const a = await site.admin.client.post(`${site.url}/external-links`, {
      title: 'Blog',
      url: 'https://blog.acme.test/',
    });
    const group = await site.admin.client.post(`${site.url}/section-groups`, { title: 'More' });
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API', 'Blog', 'More[]']);

    const first = await sort(site, {
      item: { type: 'site-external-link', id: a.body.id },
      position: { before: { type: 'site-section', id: site.docs } },
    });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ object: 'site-external-link', id: a.body.id });
    expect(titles((await structure(site)).structure)).toEqual(['Blog', 'Docs', 'API', 'More[]']);

    const g = await sort(site, {
      item: { type: 'site-section-group', id: group.body.id },
      position: { after: { type: 'site-external-link', id: a.body.id } },
    });
    expect(g.body).toMatchObject({ object: 'site-section-group', id: group.body.id });
    expect(titles((await structure(site)).structure)).toEqual(['Blog', 'More[]', 'Docs', 'API']);

    // Both pointers: they must be adjacent siblings.
    const between = await sort(site, {
      item: { type: 'site-section', id: site.api },
      position: {
        after: { type: 'site-external-link', id: a.body.id },
        before: { type: 'site-section-group', id: group.body.id },
      },
    });
    expect(between.status).toBe(200);
    expect(titles((await structure(site)).structure)).toEqual(['Blog', 'API', 'More[]', 'Docs']);
    const apart = await sort(site, {
      item: { type: 'site-section', id: site.api },
      position: {
        after: { type: 'site-external-link', id: a.body.id },
        before: { type: 'site-section', id: site.docs },
      },
    });
    expect(apart.status).toBe(400);

    // An empty position: the end of the level.
    expect((await sort(site, { item: { type: 'site-external-link', id: a.body.id }, position: {} })).status).toBe(200);
    expect(titles((await structure(site)).structure)).toEqual(['API', 'More[]', 'Docs', 'Blog']);

    // Inside a group: a section and a link.
    await site.admin.client.post(`${site.url}/section-groups/${group.body.id}/sections`, { sectionId: site.api });
    await site.admin.client.patch(`${site.url}/external-links/${a.body.id}`, { parent: group.body.id });
    expect(titles((await structure(site)).structure)).toEqual(['More[API,Blog]', 'Docs']);
    const inGroup = await sort(
      site,
      {
        item: { type: 'site-external-link', id: a.body.id },
        position: { before: { type: 'site-section', id: site.api } },
      },
      { prefer: 'return=minimal' },
    );
    expect(inGroup.status).toBe(204);
    expect(inGroup.headers['preference-applied']).toBe('return=minimal');
    expect(titles((await structure(site)).structure)).toEqual(['More[Blog,API]', 'Docs']);

    // Site spaces, within their section.
    const docs = await sectionOf(site, site.docs);
    const [s1, s2] = docs.siteSpaces as Array<{ id: string }>;
    const moved = await sort(site, {
      item: { type: 'site-space', id: s2?.id },
      position: { before: { type: 'site-space', id: s1?.id } },
    });
    expect(moved.status).toBe(200);
    expect(moved.body).toMatchObject({ object: 'site-space', id: s2?.id });
    const after = await sectionOf(site, site.docs);
    expect(after.siteSpaces.map((s: { id: string }) => s.id)).toEqual([s2?.id, s1?.id]);
    expect((await auditEvents(site.admin.client, site.orgId, 'site.structure.updated')).length).toBeGreaterThan(5);
  });

  it('400 for a position that is no sibling (another level, another site, unknown); 404 for an item not in the site', async () => {
    const site = await sectioned();
    const other = await sectioned();
    const group = await site.admin.client.post(`${site.url}/section-groups`, { title: 'More', sections: [site.api] });
    const docs = await sectionOf(site, site.docs);
    const before = titles((await structure(site)).structure);
    for (const pointer of [
      { type: 'site-section', id: site.api }, // inside the group: not a top-level sibling
      { type: 'site-section', id: other.docs },
      { type: 'site-space', id: docs.siteSpaces[0]?.id },
      { type: 'site-external-link', id: 'nope' },
    ]) {
      const res = await sort(site, { item: { type: 'site-section', id: site.docs }, position: { before: pointer } });
      expect(res.status, JSON.stringify(pointer)).toBe(400);
      expect(res.body.error.message).toMatch(/body\/position\/before/);
    }
    for (const item of [
      { type: 'site-section', id: other.docs },
      { type: 'site-section-group', id: 'nope' },
      { type: 'site-external-link', id: 'nope' },
      { type: 'site-space', id: 'nope' },
    ]) {
      expect((await sort(site, { item, position: {} })).status).toBe(404);
    }
    for (const body of [
      {},
      { item: { type: 'site-page', id: site.docs }, position: {} },
      { item: { type: 'site-section', id: site.docs } },
      { item: { type: 'site-section', id: '' }, position: {} },
    ]) {
      expect((await sort(site, body)).status).toBe(400);
    }
    expect(titles((await structure(site)).structure)).toEqual(before);
    expect(group.status).toBe(201);
  });

  it('404 to outsiders and another organization, 403 to readers', async () => {
    const site = await sectioned();
    const other = await sectioned();
    const body = {
      item: { type: 'site-section', id: site.api },
      position: { before: { type: 'site-section', id: site.docs } },
    };
    const outsider = await h.user();
    const reader = await h.member(site.orgId, 'read');
    for (const client of [outsider.client, other.admin.client]) {
      expect((await client.patch(`${site.url}/structure/sort`, body)).status).toBe(404);
    }
    expect((await reader.client.patch(`${site.url}/structure/sort`, body)).status).toBe(403);
    expect(titles((await structure(site)).structure)).toEqual(['Docs', 'API']);
  });
});
