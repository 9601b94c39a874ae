/** Site spaces: defaults, order, paths, conditions, limits, access. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type SiteOptions, newSite as siteIn, siteSpaces, titles } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

const newSite = (options?: SiteOptions) => siteIn(h, options);

describe('site spaces', () => {
  it('adds at the end (201, Location); the first is the default; paths are made unique', async () => {
    const site = await newSite();
    const a = await site.space('Guide');
    const b = await site.space('Guide');
    const first = await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: a });
    expect(first.status).toBe(201);
    expect(first.headers.location).toBe(`http://bindery.test${site.url}/site-spaces/${first.body.id}`);
    expect(first.body).toMatchObject({ object: 'site-space', path: 'guide', default: true, title: 'Guide', urls: {} });
    expect(first.body.space.id).toBe(a);
    const second = await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: b });
    expect(second.body).toMatchObject({ path: 'guide-2', default: false });
    const created = await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: null });
    expect(created.status).toBe(201);
    expect(titles(await siteSpaces(site))).toEqual(['Guide*', 'Guide', 'Docs']);
    expect((await site.admin.client.get(site.url)).body.siteSpaces).toBe(3);
    expect((await site.admin.client.post(`${site.url}/site-spaces`, {})).status).toBe(400);
    expect((await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: 'missing' })).status).toBe(404);
    expect((await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: a, sectionId: 'nope' })).status).toBe(
      400,
    );
  });

  it('the default filter, and exactly one default through adds, moves and deletes', async () => {
    const site = await newSite({ spaces: ['A', 'B', 'C', 'D'] });
    let items = await siteSpaces(site);
    const [a, b, c, d] = items.map((s) => s.id);
    expect(titles(await siteSpaces(site, '?default=true'))).toEqual(['A*']);
    expect(titles(await siteSpaces(site, '?default=false'))).toEqual(['B', 'C', 'D']);

    // Move: D before B, A to the end, C after D.
    const move = (id: string, position?: object) =>
      site.admin.client.post(`${site.url}/site-spaces/${id}/move`, position ? { position } : {});
    expect((await move(d as string, { before: { type: 'site-space', siteSpace: b } })).status).toBe(200);
    expect(titles(await siteSpaces(site))).toEqual(['A*', 'D', 'B', 'C']);
    const moved = await move(a as string);
    expect(moved.body.default).toBe(true);
    expect(titles(await siteSpaces(site))).toEqual(['D', 'B', 'C', 'A*']);
    await move(c as string, { after: { type: 'site-space', siteSpace: d } });
    expect(titles(await siteSpaces(site))).toEqual(['D', 'C', 'B', 'A*']);
    await move(a as string, {
      after: { type: 'site-space', siteSpace: d },
      before: { type: 'site-space', siteSpace: c },
    });
    expect(titles(await siteSpaces(site))).toEqual(['D', 'A*', 'C', 'B']);
    expect(
      (
        await move(a as string, {
          after: { type: 'site-space', siteSpace: b },
          before: { type: 'site-space', siteSpace: c },
        })
      ).status,
    ).toBe(400);
    expect((await move(a as string, { before: { type: 'site-space', siteSpace: 'nope' } })).status).toBe(400);
    expect((await move(a as string, { before: { type: 'space', space: b } })).status).toBe(400);

    // The default moves with PATCH site defaultSiteSpace; deleting it promotes the first remaining.
    const patched = await site.admin.client.patch(site.url, { defaultSiteSpace: c });
    expect(patched.status).toBe(200);
    expect(titles(await siteSpaces(site))).toEqual(['D', 'A', 'C*', 'B']);
    expect((await site.admin.client.patch(site.url, { defaultSiteSpace: 'nope' })).status).toBe(400);
    expect((await site.admin.client.delete(`${site.url}/site-spaces/${c}`)).status).toBe(204);
    expect(titles(await siteSpaces(site))).toEqual(['D*', 'A', 'B']);
    expect((await site.admin.client.delete(`${site.url}/site-spaces/${c}`)).status).toBe(404);
    await site.admin.client.delete(`${site.url}/site-spaces/${a}`);
    await site.admin.client.delete(`${site.url}/site-spaces/${d}`);
    expect(titles(await siteSpaces(site))).toEqual(['B*']);
    await site.admin.client.delete(`${site.url}/site-spaces/${b}`);
    expect(await siteSpaces(site)).toEqual([]);
    const added = await site.admin.client.post(`${site.url}/site-spaces`, { spaceId: await site.space('E') });
    expect(added.body.default).toBe(true);
    items = await siteSpaces(site);
    expect(items).toHaveLength(1);
  });

  it('concurrent adds keep one default and distinct paths', async () => {
    const site = await newSite();
    const spaces = [];
    for (let i = 0; i < 6; i++) spaces.push(await site.space('Same'));
    const results = await Promise.all(
      spaces.map((spaceId) => site.admin.client.post(`${site.url}/site-spaces`, { spaceId })),
    );
    expect(results.map((r) => r.status)).toEqual(spaces.map(() => 201));
    const items = await siteSpaces(site);
    expect(items.filter((s) => s.default)).toHaveLength(1);
    expect(new Set(items.map((s) => s.path)).size).toBe(6);
  });

  it('pages through site spaces in order', async () => {
    const site = await newSite({ spaces: ['A', 'B', 'C'] });
    const first = await site.admin.client.get(`${site.url}/site-spaces?limit=2`);
    expect(first.body.count).toBe(3);
    expect(titles(first.body.items)).toEqual(['A*', 'B']);
    const rest = await site.admin.client.get(`${site.url}/site-spaces?limit=2&page=${first.body.next.page}`);
    expect(titles(rest.body.items)).toEqual(['C']);
    expect(rest.body.next).toBeUndefined();
  });

  it.each([
    ['', 400],
    ['a', 200],
    ['p'.repeat(100), 200],
    ['p'.repeat(101), 400],
  ])('path %j -> %i', async (path, status) => {
    const site = await newSite({ spaces: ['A'] });
    const [item] = await siteSpaces(site);
    const res = await site.admin.client.patch(`${site.url}/site-spaces/${item?.id}`, { path });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.path).toBe(path);
    else expect(res.body.error.message).toContain('path');
  });

  it('path is unique within its section or the root (409), and free again in another section', async () => {
    const site = await newSite({ spaces: ['A', 'B'], published: true });
    const [a, b] = await siteSpaces(site);
    const clash = await site.admin.client.patch(`${site.url}/site-spaces/${b?.id}`, { path: a?.path });
    expect(clash.status).toBe(409);
    expect(clash.body.error.message).toContain('path');
    const renamed = await site.admin.client.patch(`${site.url}/site-spaces/${b?.id}`, { path: 'v2' });
    expect(renamed.body.urls.published).toMatch(/\/docs\/v2$/);
    // In a new section, "a" is free.
    const section = await site.admin.client.post(`${site.url}/sections`, {
      spaceId: await site.space('A'),
      title: 'Other',
    });
    const inSection = section.body.siteSpaces[0];
    expect(inSection.path).toBe('a');
    expect((await site.admin.client.patch(`${site.url}/site-spaces/${inSection.id}`, { path: 'v2' })).status).toBe(200);
  });

  it.each([
    ['', 400],
    ['x', 200],
    ['x'.repeat(1024), 200],
    ['x'.repeat(1025), 400],
  ])('condition %j', async (condition, status) => {
    const site = await newSite({ spaces: ['A'] });
    const [item] = await siteSpaces(site);
    const res = await site.admin.client.patch(`${site.url}/site-spaces/${item?.id}`, { condition });
    expect(res.status).toBe(status);
    if (status === 200) expect(res.body.condition).toBe(condition);
  });

  it('condition must parse as an expression; null removes it; absent leaves it', async () => {
    const site = await newSite({ spaces: ['A'] });
    const [item] = await siteSpaces(site);
    const url = `${site.url}/site-spaces/${item?.id}`;
    const ok = await site.admin.client.patch(url, {
      condition: 'visitor.claims.plan === "pro" && !visitor.claims.trial',
    });
    expect(ok.status).toBe(200);
    for (const bad of ['visitor.claims.plan ===', 'a b', '(a', 'a; b']) {
      const res = await site.admin.client.patch(url, { condition: bad });
      expect(res.status).toBe(400);
      expect(res.body.error.message).toMatch(/body\/condition is not a valid expression: .+/);
    }
    expect((await site.admin.client.patch(url, { path: 'renamed' })).body.condition).toContain('visitor');
    const removed = await site.admin.client.patch(url, { condition: null });
    expect(removed.body.condition).toBeUndefined();
  });

  it('readers list but cannot change; outsiders see nothing', async () => {
    const site = await newSite({ spaces: ['A'] });
    const [item] = await siteSpaces(site);
    const reader = await h.member(site.orgId, 'read');
    expect((await reader.client.get(`${site.url}/site-spaces`)).status).toBe(200);
    expect((await reader.client.patch(`${site.url}/site-spaces/${item?.id}`, { path: 'x' })).status).toBe(403);
    expect((await reader.client.delete(`${site.url}/site-spaces/${item?.id}`)).status).toBe(403);
    expect((await reader.client.post(`${site.url}/site-spaces/${item?.id}/move`, {})).status).toBe(403);
    expect((await reader.client.post(`${site.url}/site-spaces`, { spaceId: await site.space() })).status).toBe(403);
    const outsider = await h.user();
    expect((await outsider.client.get(`${site.url}/site-spaces`)).status).toBe(404);
    expect((await outsider.client.patch(`${site.url}/site-spaces/${item?.id}`, { path: 'x' })).status).toBe(404);
  });
});
