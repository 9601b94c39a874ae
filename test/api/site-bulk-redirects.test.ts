/** `bulkUpsertSiteRedirects`: create, update and delete in one transaction, all or nothing; limits; access. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { auditEvents } from '../helpers/audit.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

interface Site {
  orgId: string;
  admin: TestUser;
  url: string;
  siteSpaces: Array<{ id: string }>;
}

async function newSite(): Promise<Site> {
  const org = await h.org();
  const spaces = [];
  for (const title of ['Guide', 'Reference']) {
    spaces.push((await org.admin.client.post(`/v1/orgs/${org.id}/spaces`, { title })).body.id);
  }
  const res = await org.admin.client.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces });
  const url = `/v1/orgs/${org.id}/sites/${res.body.id}`;
  const siteSpaces = (await org.admin.client.get(`${url}/site-spaces`)).body.items;
  return { orgId: org.id, admin: org.admin, url, siteSpaces };
}

const external = (url: string) => ({ kind: 'external', url });
const redirects = async (site: Site) =>
  (
    (await site.admin.client.get(`${site.url}/redirects?limit=1000`)).body.items as Array<{
      id: string;
      source: string;
      destination: { kind: string; url?: string; siteSpaceId?: string };
    }>
  ).map((r) => `${r.source}->${r.destination.url ?? r.destination.siteSpaceId}`);

describe('bulkUpsertSiteRedirects', () => {
  it('creates, updates and deletes in order, with a result per entry and an event per change', async () => {
    const site = await newSite();
    const existing = await site.admin.client.post(`${site.url}/redirects`, {
      source: '/old',
      destination: external('https://a.test/'),
    });
    await site.admin.client.post(`${site.url}/redirects`, {
      source: '/gone',
      destination: external('https://b.test/'),
    });
    const space = site.siteSpaces[1]?.id as string;
    const res = await site.admin.client.put(`${site.url}/redirects`, {
      redirects: [
        { source: '/new', destination: { kind: 'site-space', siteSpaceId: space } },
        { source: '/old', intent: 'live', destination: external('https://c.test/') },
        { source: '/gone', destination: null },
        { source: '/blog', destination: external('https://blog.test/'), captureWildcard: false, permanent: false },
      ],
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const [created, updated, deleted, blog] = res.body.results;
    expect(created).toEqual({ status: 'created', source: '/new', draft: false, id: expect.any(String) });
    expect(updated).toEqual({ status: 'updated', source: '/old', draft: false, id: existing.body.id });
    expect(deleted).toEqual({ status: 'deleted', source: '/gone', draft: false });
    expect(blog.status).toBe('created');
    expect((await redirects(site)).sort()).toEqual([
      '/blog->https://blog.test/',
      `/new->${space}`,
      '/old->https://c.test/',
    ]);
    expect(await auditEvents(site.admin.client, site.orgId, 'site.redirect.created')).toHaveLength(4);
    expect(await auditEvents(site.admin.client, site.orgId, 'site.redirect.updated')).toHaveLength(1);
    expect(await auditEvents(site.admin.client, site.orgId, 'site.redirect.deleted')).toHaveLength(1);
  });

  it('writes nothing when one entry is bad (400 naming it), whatever its place', async () => {
    const site = await newSite();
    await site.admin.client.post(`${site.url}/redirects`, {
      source: '/keep',
      destination: external('https://a.test/'),
    });
    const good = { source: '/fine', destination: external('https://f.test/') };
    const cases: Array<[unknown, RegExp]> = [
      [
        { source: '/x1', destination: { kind: 'site-space', siteSpaceId: 'nope' } },
        /body\/redirects\/1: .*siteSpaceId/,
      ],
      [{ source: '/missing', destination: null }, /body\/redirects\/1: .*no redirect/],
      [{ source: '/fine', destination: external('https://g.test/') }, /body\/redirects\/1\/source: .*twice/],
      [{ source: '/x2', intent: 'draft', destination: external('https://d.test/') }, /body\/redirects\/1\/intent/],
      [{ source: '/x3', intent: 'publish' }, /body\/redirects\/1\/intent/],
      [{ source: '/x4', permanent: true, destination: external('https://d.test/') }, /permanent/],
      [{ source: '/x5', captureWildcard: true, destination: external('https://d.test/') }, /captureWildcard/],
      [{ source: '/x6' }, /destination/],
      [{ source: '/x7', destination: external('javascript:alert(1)') }, /body\/redirects\/1\/destination/],
      [{ source: 'no-slash', destination: external('https://d.test/') }, /source|pattern/],
      [{ source: '/x8', destination: external('https://d.test/'), extra: 1 }, /additional|extra/],
    ];
    for (const [bad, message] of cases) {
      const res = await site.admin.client.put(`${site.url}/redirects`, {
        redirects: [good, bad, { source: '/last', destination: external('https://l.test/') }],
      });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.error.message, JSON.stringify(bad)).toMatch(message);
    }
    // The first entry of a bad request was not kept, nor the event of it.
    expect(await redirects(site)).toEqual(['/keep->https://a.test/']);
    expect(await auditEvents(site.admin.client, site.orgId, 'site.redirect.created')).toHaveLength(1);
  });

  it('takes 1 to 500 entries', async () => {
    const site = await newSite();
    const entries = (n: number) =>
      Array.from({ length: n }, (_, i) => ({ source: `/p${i}`, destination: external(`https://t.test/${i}`) }));
    expect((await site.admin.client.put(`${site.url}/redirects`, { redirects: [] })).status).toBe(400);
    expect((await site.admin.client.put(`${site.url}/redirects`, { redirects: entries(501) })).status).toBe(400);
    expect((await site.admin.client.put(`${site.url}/redirects`, {})).status).toBe(400);
    expect(await redirects(site)).toEqual([]);
    const res = await site.admin.client.put(`${site.url}/redirects`, { redirects: entries(500) });
    expect(res.status).toBe(200);
    expect(res.body.results).toHaveLength(500);
    expect(await redirects(site)).toHaveLength(500);
    // Again: all updates now.
    const again = await site.admin.client.put(`${site.url}/redirects`, { redirects: entries(500) });
    expect(new Set(again.body.results.map((r: { status: string }) => r.status))).toEqual(new Set(['updated']));
  }, 60_000);

  it('404 to outsiders and another organization, 403 to readers', async () => {
    const site = await newSite();
    const other = await newSite();
    const outsider = await h.user();
    const reader = await h.member(site.orgId, 'read');
    const body = { redirects: [{ source: '/a1', destination: external('https://a.test/') }] };
    expect((await outsider.client.put(`${site.url}/redirects`, body)).status).toBe(404);
    expect((await other.admin.client.put(`${site.url}/redirects`, body)).status).toBe(404);
    expect((await reader.client.put(`${site.url}/redirects`, body)).status).toBe(403);
    // A destination in another site is not this site's.
    const foreign = {
      redirects: [{ source: '/a2', destination: { kind: 'site-space', siteSpaceId: other.siteSpaces[0]?.id } }],
    };
    expect((await site.admin.client.put(`${site.url}/redirects`, foreign)).status).toBe(400);
    expect(await redirects(site)).toEqual([]);
  });
});
