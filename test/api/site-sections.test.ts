/** Site sections and section groups: defaults, order, paths, conditions, limits, access. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type Item, type Site, type SiteOptions, newSite as siteIn, siteSpaces, titles } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const newSite = (options?: SiteOptions) => siteIn(h, options);

type Section = { id: string; title: string; default: boolean; path: string; siteSpaces: Item[]; sectionGroup?: string };
const sections = async (site: Site) => (await site.admin.client.get(`${site.url}/sections`)).body.items as Section[];
const sectionTitles = (items: Section[]) => items.map((s) => `${s.title}${s.default ? '*' : ''}`);

describe('site sections', () => {
  it('the first section gathers the root site spaces; new ones get theirs as default', async () => {
    const site = await newSite({ spaces: ['A', 'B'], published: true });
    const res = await site.admin.client.post(`${site.url}/sections`, {
      spaceId: await site.space('C'),
      title: 'API',
      icon: 'code',
    });
    expect(res.status).toBe(201);
    expect(res.headers.location).toBe(`http://bindery.test${site.url}/sections/${res.body.id}`);
    expect(res.body).toMatchObject({ object: 'site-section', title: 'API', path: 'api', default: false, icon: 'code' });
    expect(res.body.urls.published).toMatch(/\/docs\/api$/);
    expect(titles(res.body.siteSpaces)).toEqual(['C*']);
    const all = await sections(site);
    expect(sectionTitles(all)).toEqual(['Docs*', 'API']);
    expect(titles(all[0]?.siteSpaces ?? [])).toEqual(['A*', 'B']);
    // New site spaces join the default section unless told otherwise.
    await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: await site.space('D') });
    await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: await site.space('E'), sectionId: res.body.id });
    const after = await sections(site);
    expect(titles(after[0]?.siteSpaces ?? [])).toEqual(['A*', 'B', 'D']);
    expect(titles(after[1]?.siteSpaces ?? [])).toEqual(['C*', 'E']);
    expect(after[1]?.siteSpaces[1]?.urls).toEqual({ published: expect.stringMatching(/\/docs\/api\/e$/) });
    const created = await site.admin.client.post(`${site.url}/sections`, { spaceId: null, title: 'New' });
    expect(created.status).toBe(201);
    expect(created.body.siteSpaces[0].space.title).toBe('New');
  });

  it('a site without site spaces: its first section is the default', async () => {
    const site = await newSite();
    const res = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('Alpha') });
    expect(res.body).toMatchObject({ default: true, title: 'Alpha', path: 'alpha' });
    expect(sectionTitles(await sections(site))).toEqual(['Alpha*']);
    // Section titles are 2 to 128 characters: a shorter space title gives a generic one.
    const short = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('B') });
    expect(short.body.title).toBe('Section');
  });

  it('default section and default site space per section; deletes hand the default on', async () => {
    const site = await newSite({ spaces: ['A'] });
    const s2 = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('B'), title: 'Two' });
    const s3 = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('C'), title: 'Three' });
    expect((await site.admin.client.patch(site.url, { defaultSiteSection: s3.body.id })).status).toBe(200);
    expect(sectionTitles(await sections(site))).toEqual(['Docs', 'Two', 'Three*']);
    expect((await site.admin.client.patch(site.url, { defaultSiteSection: 'nope' })).status).toBe(400);
    // defaultSiteSpace on the site: must be in the default section.
    const extra = await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: await site.space('D') });
    expect(extra.body.section).toBe(s3.body.id);
    expect((await site.admin.client.patch(site.url, { defaultSiteSpace: extra.body.id })).status).toBe(200);
    expect(titles((await sections(site))[2]?.siteSpaces ?? [])).toEqual(['C', 'D*']);
    const inTwo = s2.body.siteSpaces[0].id;
    expect((await site.admin.client.patch(site.url, { defaultSiteSpace: inTwo })).status).toBe(400);
    // defaultSiteSpace on a section: must be in that section.
    expect(
      (await site.admin.client.patch(`${site.url}/sections/${s2.body.id}`, { defaultSiteSpace: extra.body.id })).status,
    ).toBe(400);
    // Exactly one default site space per section, and in the default= filter.
    expect(titles(await siteSpaces(site, '?default=true'))).toEqual(['A*', 'B*', 'D*']);

    expect((await site.admin.client.delete(`${site.url}/sections/${s3.body.id}`)).status).toBe(204);
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Two']);
    expect((await site.admin.client.get(site.url)).body.siteSpaces).toBe(2);
    expect((await site.admin.client.delete(`${site.url}/sections/${s3.body.id}`)).status).toBe(404);
  });

  it('moves among siblings; order shows in lists and the published structure', async () => {
    const site = await newSite({ spaces: ['A'] });
    const b = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('B'), title: 'Bee' });
    const c = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('C'), title: 'Cee' });
    const [docs] = await sections(site);
    const move = (id: string, position?: object) =>
      site.admin.client.post(`${site.url}/sections/${id}/move`, position ? { position } : {});
    expect((await move(c.body.id, { before: { type: 'site-section', siteSection: docs?.id } })).status).toBe(200);
    expect(sectionTitles(await sections(site))).toEqual(['Cee', 'Docs*', 'Bee']);
    await move(c.body.id);
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Bee', 'Cee']);
    await move(docs?.id as string, { after: { type: 'site-section', siteSection: b.body.id } });
    expect(sectionTitles(await sections(site))).toEqual(['Bee', 'Docs*', 'Cee']);
    const published = await site.admin.client.get(`${site.url}/published`);
    expect(published.body.structure.structure.map((s: Section) => s.title)).toEqual(['Bee', 'Docs', 'Cee']);
    expect((await move(c.body.id, { before: { type: 'site-section', siteSection: 'nope' } })).status).toBe(400);
  });

  it('updates title, path, description, icon and condition with their limits', async () => {
    const site = await newSite({ spaces: ['A'], published: true });
    const s = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('B'), title: 'Bee' });
    const url = `${site.url}/sections/${s.body.id}`;
    const res = await site.admin.client.patch(url, {
      title: 'Reference',
      path: 'ref',
      description: 'All of it',
      icon: 'i'.repeat(50),
      condition: 'visitor.claims.beta',
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      title: 'Reference',
      path: 'ref',
      description: 'All of it',
      condition: 'visitor.claims.beta',
    });
    expect(res.body.urls.published).toMatch(/\/docs\/ref$/);
    expect(res.body.siteSpaces[0].urls.published).toMatch(/\/docs\/ref$/);
    expect((await site.admin.client.patch(url, { icon: 'i'.repeat(51) })).status).toBe(400);
    expect((await site.admin.client.patch(url, { path: '' })).status).toBe(400);
    expect((await site.admin.client.patch(url, { path: 'p'.repeat(101) })).status).toBe(400);
    expect((await site.admin.client.patch(url, { condition: '1 +' })).status).toBe(400);
    const [docs] = await sections(site);
    expect((await site.admin.client.patch(url, { path: docs?.path })).status).toBe(409);
    const cleared = await site.admin.client.patch(url, { description: null, icon: null, condition: null });
    expect(cleared.body.description).toBeUndefined();
    expect(cleared.body.icon).toBeUndefined();
    expect(cleared.body.condition).toBeUndefined();
  });
});

type Group = { id: string; title: string; icon?: string; sections: Section[]; children: Section[] };

describe('site section groups', () => {
  it.each([
    ['', 400],
    ['g', 201],
    ['g'.repeat(100), 201],
    ['g'.repeat(101), 400],
  ])('title %j -> %i on create, same limit on update', async (title, status) => {
    const site = await newSite();
    const res = await site.admin.client.post(`${site.url}/section-groups`, { title });
    expect(res.status).toBe(status);
    const group = await site.admin.client.post(`${site.url}/section-groups`, { title: 'ok' });
    const patched = await site.admin.client.patch(`${site.url}/section-groups/${group.body.id}`, { title });
    expect(patched.status).toBe(status === 201 ? 200 : 400);
  });

  it.each([
    ['i'.repeat(50), 201],
    ['i'.repeat(51), 400],
  ])('icon of %#: 50 -> 201, 51 -> 400', async (icon, status) => {
    const site = await newSite();
    expect((await site.admin.client.post(`${site.url}/section-groups`, { title: 'G', icon })).status).toBe(status);
    const section = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space(), icon });
    expect(section.status).toBe(status);
  });

  it('creates with sections, lists, adds and removes sections, moves, and deletes keeping the sections', async () => {
    const site = await newSite({ spaces: ['A'] });
    const b = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('B'), title: 'Bee' });
    const c = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('C'), title: 'Cee' });
    const d = await site.admin.client.post(`${site.url}/sections`, { spaceId: await site.space('D'), title: 'Dee' });
    const [docs] = await sections(site);
    const g = await site.admin.client.post(`${site.url}/section-groups`, {
      title: 'G',
      icon: 'book',
      sections: [c.body.id, b.body.id],
    });
    expect(g.status).toBe(201);
    expect(g.headers.location).toBe(`http://bindery.test${site.url}/section-groups/${g.body.id}`);
    expect(g.body).toMatchObject({ object: 'site-section-group', title: 'G', icon: 'book' });
    expect(g.body.sections.map((s: Section) => s.title)).toEqual(['Cee', 'Bee']);
    expect(g.body.children.map((s: Section) => s.title)).toEqual(['Cee', 'Bee']);
    expect(g.body.sections[0].sectionGroup).toBe(g.body.id);
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Dee', 'Cee', 'Bee']);
    const bad = await site.admin.client.post(`${site.url}/section-groups`, { title: 'X', sections: ['nope'] });
    expect(bad.status).toBe(400);

    // Group move among the top level (sections and groups).
    const moveGroup = (position?: object) =>
      site.admin.client.post(`${site.url}/section-groups/${g.body.id}/move`, position ? { position } : {});
    expect((await moveGroup({ before: { type: 'site-section', id: docs?.id } })).status).toBe(200);
    expect(sectionTitles(await sections(site))).toEqual(['Cee', 'Bee', 'Docs*', 'Dee']);
    const h2 = await site.admin.client.post(`${site.url}/section-groups`, { title: 'H' });
    await moveGroup({ after: { type: 'site-section-group', id: h2.body.id } });
    const published = await site.admin.client.get(`${site.url}/published`);
    expect(published.body.structure.structure.map((i: Group) => i.title)).toEqual(['Docs', 'Dee', 'H', 'G']);
    expect((await moveGroup({ before: { type: 'site-section', id: b.body.id } })).status).toBe(400);

    // Move a section within the group.
    await site.admin.client.post(`${site.url}/sections/${b.body.id}/move`, {
      position: { before: { type: 'site-section', siteSection: c.body.id } },
    });
    const groups = (await site.admin.client.get(`${site.url}/section-groups`)).body;
    expect(groups.count).toBe(2);
    expect(groups.items.map((i: Group) => [i.title, i.sections.map((s) => s.title)])).toEqual([
      ['H', []],
      ['G', ['Bee', 'Cee']],
    ]);

    // Add (moves in at the end), remove (back to the top level after the group).
    const added = await site.admin.client.post(`${site.url}/section-groups/${g.body.id}/sections`, {
      sectionId: d.body.id,
    });
    expect(added.status).toBe(200);
    expect(added.body.sections.map((s: Section) => s.title)).toEqual(['Bee', 'Cee', 'Dee']);
    expect(
      (await site.admin.client.post(`${site.url}/section-groups/${g.body.id}/sections`, { sectionId: 'nope' })).status,
    ).toBe(400);
    expect(
      (await site.admin.client.delete(`${site.url}/section-groups/${g.body.id}/sections/${b.body.id}`)).status,
    ).toBe(204);
    expect(
      (await site.admin.client.delete(`${site.url}/section-groups/${g.body.id}/sections/${b.body.id}`)).status,
    ).toBe(404);
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Cee', 'Dee', 'Bee']);
    // Moving a section into a group by PATCH, and out with null.
    await site.admin.client.patch(`${site.url}/sections/${b.body.id}`, { siteSectionGroupId: h2.body.id });
    expect(
      (await site.admin.client.get(`${site.url}/sections`)).body.items.find((s: Section) => s.id === b.body.id)
        .sectionGroup,
    ).toBe(h2.body.id);
    await site.admin.client.patch(`${site.url}/sections/${b.body.id}`, { siteSectionGroupId: null });
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Bee', 'Cee', 'Dee']);

    const patched = await site.admin.client.patch(`${site.url}/section-groups/${g.body.id}`, {
      title: 'Guides',
      icon: null,
    });
    expect(patched.body.title).toBe('Guides');
    expect(patched.body.icon).toBeUndefined();
    // Deleting a group keeps its sections where the group stood.
    expect((await site.admin.client.delete(`${site.url}/section-groups/${g.body.id}`)).status).toBe(204);
    expect(sectionTitles(await sections(site))).toEqual(['Docs*', 'Bee', 'Cee', 'Dee']);
    expect((await site.admin.client.get(`${site.url}/section-groups`)).body.count).toBe(1);
    expect((await site.admin.client.delete(`${site.url}/section-groups/${g.body.id}`)).status).toBe(404);
  });

  it('readers list groups and sections but cannot change them', async () => {
    const site = await newSite({ spaces: ['A'] });
    const g = await site.admin.client.post(`${site.url}/section-groups`, { title: 'G' });
    const reader = await h.member(site.orgId, 'read');
    expect((await reader.client.get(`${site.url}/section-groups`)).status).toBe(200);
    expect((await reader.client.get(`${site.url}/sections`)).status).toBe(200);
    expect((await reader.client.post(`${site.url}/section-groups`, { title: 'X' })).status).toBe(403);
    expect((await reader.client.patch(`${site.url}/section-groups/${g.body.id}`, { title: 'X' })).status).toBe(403);
    expect((await reader.client.post(`${site.url}/sections`, { spaceId: null })).status).toBe(403);
    expect((await (await h.user()).client.get(`${site.url}/section-groups`)).status).toBe(404);
  });
});
