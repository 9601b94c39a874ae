/**
 * The organization's cached site-space nodes (sites/node-cache.ts), which every member read counts
 * `sites` from, never outlive a change made in this process: each test reads a member's `sites`
 * once the nodes are cached, changes one thing through the API, and the very next read shows it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createHarness, type Harness } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

/**
 * Waits out the quarantine of core/cache.ts: for 2 s after an invalidation (which the setup's own
 * writes make) nothing with that tag is cached, and a test reading in that window would pass even
 * with its invalidation missing.
 */
const pastQuarantine = () => new Promise((resolve) => setTimeout(resolve, 2_100));

/** An organization with a reader (organization role `read`) and a space `space` they inherit a role on. */
async function world() {
  const org = await h.org();
  const c = org.admin.client;
  const reader = await h.member(org.id, 'read');
  const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'S' })).body.id as string;
  const site = async (spaces: string[]) =>
    (await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Site', spaces })).body.id as string;
  const sitesOf = async (client: Client = c) => {
    const res = await client.get(`/v1/orgs/${org.id}/members/${reader.user.id}`);
    expect(res.status).toBe(200);
    return res.body.sites as number;
  };
  /** The reader's `sites`, read twice past the quarantine, so the second read is served from the cache. */
  const cachedSitesOf = async () => {
    await pastQuarantine();
    await sitesOf();
    return sitesOf();
  };
  return { org, c, reader, space, site, sitesOf, cachedSitesOf };
}

describe('site-space nodes', () => {
  it('are cached: a change the API did not make is not seen until the entry goes', async () => {
    const { org, c, space, site, sitesOf, cachedSitesOf } = await world();
    const siteId = await site([space]);
    expect(await cachedSitesOf()).toBe(1);
    await h.db.deleteFrom('site_spaces').where('site_id', '=', siteId).execute();
    // Served from the cache: this is what makes the tests below mean something.
    expect(await sitesOf()).toBe(1);
    // A site change of the organization drops the entry.
    expect((await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Other', spaces: [] })).status).toBe(201);
    expect(await sitesOf()).toBe(0);
  });

  it('a site created with a space counts on the next read, on the member and in the member list', async () => {
    const { org, c, reader, space, site, sitesOf, cachedSitesOf } = await world();
    expect(await cachedSitesOf()).toBe(0);
    await site([space]);
    expect(await sitesOf()).toBe(1);
    await site([space]);
    const list = await c.get(`/v1/orgs/${org.id}/members`);
    expect(list.body.items.find((m: { id: string }) => m.id === reader.user.id).sites).toBe(2);
  });

  it('a deleted site no longer counts', async () => {
    const { org, c, space, site, sitesOf, cachedSitesOf } = await world();
    const siteId = await site([space]);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.delete(`/v1/orgs/${org.id}/sites/${siteId}`)).status).toBe(204);
    expect(await sitesOf()).toBe(0);
  });

  it('a site space added to a site, then removed', async () => {
    const { org, c, space, site, sitesOf, cachedSitesOf } = await world();
    const url = `/v1/orgs/${org.id}/sites/${await site([])}/site-spaces`;
    expect(await cachedSitesOf()).toBe(0);
    const added = await c.post(url, { spaceId: space });
    expect(added.status).toBe(201);
    expect(await sitesOf()).toBe(1);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.delete(`${url}/${added.body.id}`)).status).toBe(204);
    expect(await sitesOf()).toBe(0);
  });

  it('a section added with a space, then deleted with its site spaces', async () => {
    const { org, c, space, site, sitesOf, cachedSitesOf } = await world();
    const url = `/v1/orgs/${org.id}/sites/${await site([])}/sections`;
    expect(await cachedSitesOf()).toBe(0);
    const added = await c.post(url, { spaceId: space });
    expect(added.status).toBe(201);
    expect(await sitesOf()).toBe(1);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.delete(`${url}/${added.body.id}`)).status).toBe(204);
    expect(await sitesOf()).toBe(0);
  });

  it('a space deleted, then restored', async () => {
    const { c, space, site, sitesOf, cachedSitesOf } = await world();
    await site([space]);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.delete(`/v1/spaces/${space}`)).status).toBe(204);
    expect(await sitesOf()).toBe(0);
    expect(await cachedSitesOf()).toBe(0);
    expect((await c.post(`/v1/spaces/${space}/restore`)).status).toBe(200);
    expect(await sitesOf()).toBe(1);
  });

  it('a space given another default level', async () => {
    const { c, space, site, sitesOf, cachedSitesOf } = await world();
    await site([space]);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.patch(`/v1/spaces/${space}`, { defaultLevel: null })).status).toBe(200);
    expect(await sitesOf()).toBe(0);
  });

  it('a space moved into a collection that gives nothing by inheritance', async () => {
    const { org, c, space, site, sitesOf, cachedSitesOf } = await world();
    const closed = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Closed' })).body.id as string;
    expect((await c.patch(`/v1/collections/${closed}`, { defaultLevel: null })).status).toBe(200);
    await site([space]);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.post(`/v1/spaces/${space}/move`, { parent: closed })).status).toBe(200);
    expect(await sitesOf()).toBe(0);
  });

  it('a deleted collection takes its spaces (soft-deleted) out of the sites', async () => {
    const { org, c, site, sitesOf, cachedSitesOf } = await world();
    const top = (await c.post(`/v1/orgs/${org.id}/collections`, { title: 'Top' })).body.id as string;
    const inside = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'In', parent: top })).body.id as string;
    await site([inside]);
    expect(await cachedSitesOf()).toBe(1);
    expect((await c.delete(`/v1/collections/${top}`)).status).toBe(204);
    expect(await sitesOf()).toBe(0);
  });
});
