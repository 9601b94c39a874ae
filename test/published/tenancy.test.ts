/**
 * Two organizations, each with a published site of the same basename, and every way a reader
 * reaches a site: `/sites/<organization id>/<basename>`, `/sites/<organization hostname>/<basename>`,
 * the organization's (or site's) custom hostname, a proxy origin, share links. Whatever an
 * organization sets or the data says, one organization never serves its site at another's address
 * and never reaches another's content.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { edit } from '../helpers/published.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
}, 120_000);
afterAll(async () => h?.close());

const get = (url: string, headers: Record<string, string> = {}) => h.anonymous.request('GET', url, undefined, headers);

interface Tenant {
  orgId: string;
  admin: TestUser;
  /** Text only this organization's site shows. */
  marker: string;
  siteId: string;
  /** `/v1/orgs/{org}/sites/{site}` */
  api: string;
  spaceId: string;
}

/** An organization with a published site `Docs` (basename `docs`) whose one page says `marker`. */
async function tenant(marker: string, visibility = 'public'): Promise<Tenant> {
  const org = await h.org();
  const c = org.admin.client;
  const spaceId = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })).body.id as string;
  await edit(c, spaceId, [
    () => [{ operation: 'insert_page', title: 'Welcome', document: { markdown: `${marker} lives here.` } }],
  ]);
  const site = await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces: [spaceId], visibility });
  expect(site.status, JSON.stringify(site.body)).toBe(201);
  const api = `/v1/orgs/${org.id}/sites/${site.body.id}`;
  expect((await c.post(`${api}/publish`)).status).toBe(200);
  return { orgId: org.id, admin: org.admin, marker, siteId: site.body.id, api, spaceId };
}

/** A fresh host name (host names are shared by every test of the run's database). */
const freshHost = (label: string) => `${label}-${newId(8).toLowerCase()}.test`;

/** Sets an organization's custom hostname, as an operator does (there is no API for it). */
async function setCustomHostname(orgId: string, host: string | null) {
  await h.db.updateTable('organizations').set({ custom_hostname: host }).where('id', '=', orgId).execute();
}

let a: Tenant;
let b: Tenant;
beforeAll(async () => {
  a = await tenant(`Alpha-${newId(6)}`);
  b = await tenant(`Beta-${newId(6)}`);
}, 120_000);

/** The page answered at `url` shows `owner`'s content and nothing of `other`'s. */
async function expectServes(url: string, owner: Tenant, other: Tenant, headers: Record<string, string> = {}) {
  const res = await get(url, headers);
  expect(res.status, url).toBe(200);
  expect(res.body).toContain(owner.marker);
  expect(res.body).not.toContain(other.marker);
}

describe('under PUBLIC_URL/sites/<organization>/<basename>', () => {
  it('by id: each organization gets its own site', async () => {
    await expectServes(`/sites/${a.orgId}/docs`, a, b);
    await expectServes(`/sites/${b.orgId}/docs`, b, a);
  });

  it('by hostname, whatever its case: stored lower-cased, resolved case-insensitively', async () => {
    const hostname = `alpha-${newId(8).toLowerCase()}`;
    const res = await a.admin.client.patch(`/v1/orgs/${a.orgId}`, { hostname: hostname.toUpperCase() });
    expect(res.status).toBe(200);
    expect(res.body.hostname).toBe(hostname);
    const site = await a.admin.client.get(a.api);
    expect(site.body.urls.published).toBe(`http://bindery.test/sites/${hostname}/docs`);
    await expectServes(`/sites/${hostname}/docs`, a, b);
    await expectServes(`/sites/${hostname.toUpperCase()}/docs`, a, b);
    // The id keeps working beside it.
    await expectServes(`/sites/${a.orgId}/docs`, a, b);
  });

  it("takeover: another organization cannot take an organization's id, or anything shaped like one, as hostname", async () => {
    for (const hostname of [a.orgId, a.orgId.toLowerCase(), newId()]) {
      const res = await b.admin.client.patch(`/v1/orgs/${b.orgId}`, { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error.message).toContain('hostname');
    }
    const created = await b.admin.client.post('/v1/orgs', { title: 'Squatter', hostname: a.orgId });
    expect(created.status).toBe(400);
    await expectServes(`/sites/${a.orgId}/docs`, a, b);
  });

  it('an id is never answered by a hostname, even one written before these rules', async () => {
    const other = await tenant(`Gamma-${newId(6)}`);
    // What an older server let B store: its hostname is A's id.
    await h.db.updateTable('organizations').set({ hostname: a.orgId }).where('id', '=', other.orgId).execute();
    await expectServes(`/sites/${a.orgId}/docs`, a, other);
    // An id-shaped address of no organization is no hostname either.
    expect((await get(`/sites/${newId()}/docs`)).status).toBe(404);
    await h.db.updateTable('organizations').set({ hostname: null }).where('id', '=', other.orgId).execute();
  });

  it('hostnames are unique across organizations whatever their case (409)', async () => {
    const hostname = `uniq-${newId(8).toLowerCase()}`;
    expect((await a.admin.client.patch(`/v1/orgs/${a.orgId}`, { hostname })).status).toBe(200);
    for (const taken of [hostname, hostname.toUpperCase()]) {
      const res = await b.admin.client.patch(`/v1/orgs/${b.orgId}`, { hostname: taken });
      expect(res.status, taken).toBe(409);
      expect(res.body.error.message).toContain('hostname');
    }
    const created = await b.admin.client.post('/v1/orgs', { title: 'Copycat', hostname: hostname.toUpperCase() });
    expect(created.status).toBe(409);
    await expectServes(`/sites/${hostname}/docs`, a, b);
  });

  it('a hostname is letters, digits and inner hyphens (a DNS label): anything else is a 400', async () => {
    for (const hostname of ['a b', 'acme/docs', '-acme', 'acme-', 'acme.docs', 'café', '%2e%2e']) {
      const res = await b.admin.client.patch(`/v1/orgs/${b.orgId}`, { hostname });
      expect(res.status, hostname).toBe(400);
      expect(res.body.error.message).toContain('hostname');
    }
  });

  it('unknown and unpublished sites are a 404 that shows nothing', async () => {
    expect((await get(`/sites/${a.orgId}/nothing`)).status).toBe(404);
    expect((await get('/sites/no-such-org/docs')).status).toBe(404);
    const c = await tenant(`Delta-${newId(6)}`);
    await expectServes(`/sites/${c.orgId}/docs`, c, a);
    expect((await c.admin.client.post(`${c.api}/unpublish`)).status).toBe(200);
    const gone = await get(`/sites/${c.orgId}/docs`);
    expect(gone.status).toBe(404);
    expect(gone.body).not.toContain(c.marker);
  });

  it("a site never serves another organization's files, even when the data links it to the space", async () => {
    // A site space naming another organization's space (the API refuses it; written behind it).
    const res = await b.admin.client.post(`${b.api}/site-spaces`, { spaceId: a.spaceId });
    expect(res.status).toBe(404);
    const site = await get(`/sites/${b.orgId}/docs/~files/${a.spaceId}/anything/x.png`);
    expect(site.status).toBe(404);
  });
});

describe('on hosts of their own', () => {
  it("a custom hostname serves its organization's sites; another organization's proxy cannot claim it", async () => {
    const host = freshHost('alpha');
    await setCustomHostname(a.orgId, host);
    await expectServes('/docs', a, b, { host });
    // B points its site's proxy at A's host, at the path A's site is served at.
    const res = await b.admin.client.patch(b.api, { proxy: `${host}/docs` });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('proxy');
    await expectServes('/docs', a, b, { host });
    // Nor at a path where A serves nothing: the host is A's.
    expect((await b.admin.client.patch(b.api, { proxy: `${host}/beta` })).status).toBe(400);
    expect((await get('/beta', { host })).status).toBe(404);
    await setCustomHostname(a.orgId, null);
  });

  it('a proxy must be on a hostname of the organization: an unclaimed host is refused', async () => {
    const res = await b.admin.client.patch(b.api, { proxy: `${freshHost('nobody')}/docs` });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toContain('proxy');
  });

  it('a proxy on its own hostname serves the site; proxies are unique whatever the case of their host', async () => {
    const host = freshHost('own');
    await setCustomHostname(a.orgId, host);
    const proxied = await a.admin.client.patch(a.api, { proxy: `${host.toUpperCase()}/help` });
    expect(proxied.status, JSON.stringify(proxied.body)).toBe(200);
    expect(proxied.body.proxy.origin).toBe(`${host}/help`);
    expect(proxied.body.urls.published).toBe(`https://${host}/help`);
    await expectServes('/help', a, b, { host });
    // Another site of the same organization cannot take the same proxy.
    const space = (await a.admin.client.post(`/v1/orgs/${a.orgId}/spaces`, { title: 'More' })).body.id as string;
    const second = await a.admin.client.post(`/v1/orgs/${a.orgId}/sites`, { title: 'More docs', spaces: [space] });
    const secondApi = `/v1/orgs/${a.orgId}/sites/${second.body.id}`;
    for (const proxy of [`${host}/help`, `${host.toUpperCase()}/help`]) {
      const res = await a.admin.client.patch(secondApi, { proxy });
      expect(res.status, proxy).toBe(409);
      expect(res.body.error.message).toContain('proxy');
    }
    // Setting the same proxy again on its own site is no conflict.
    expect((await a.admin.client.patch(a.api, { proxy: `${host}/help` })).status).toBe(200);
    expect((await a.admin.client.patch(a.api, { proxy: null })).status).toBe(200);
    await setCustomHostname(a.orgId, null);
  });

  it("a site's own custom hostname is its organization's to proxy on, not another's", async () => {
    const host = freshHost('site');
    await h.db.updateTable('sites').set({ hostname: host }).where('id', '=', a.siteId).execute();
    await expectServes('/docs', a, b, { host });
    expect((await b.admin.client.patch(b.api, { proxy: `${host}/docs` })).status).toBe(400);
    await h.db.updateTable('sites').set({ hostname: null }).where('id', '=', a.siteId).execute();
  });

  it("a proxy written on another organization's host before these rules shadows nothing", async () => {
    const host = freshHost('legacy');
    await setCustomHostname(a.orgId, host);
    await h.db
      .updateTable('sites')
      .set({ proxy: `${host}/docs` })
      .where('id', '=', b.siteId)
      .execute();
    await expectServes('/docs', a, b, { host });
    // Nor does it serve B's site anywhere else on A's host.
    await h.db
      .updateTable('sites')
      .set({ proxy: `${host}/elsewhere` })
      .where('id', '=', b.siteId)
      .execute();
    expect((await get('/elsewhere', { host })).status).toBe(404);
    await h.db.updateTable('sites').set({ proxy: null }).where('id', '=', b.siteId).execute();
    await setCustomHostname(a.orgId, null);
  });

  it('a host two organizations claim (conflicting data) serves neither', async () => {
    const host = freshHost('contested');
    await setCustomHostname(a.orgId, host);
    await h.db.updateTable('sites').set({ hostname: host }).where('id', '=', b.siteId).execute();
    // Neither site answers there (the request goes on to the API, whose reference lives at /docs).
    for (const path of ['/docs', '/docs/welcome']) {
      const res = await get(path, { host });
      expect(res.body, path).not.toContain(a.marker);
      expect(res.body, path).not.toContain(b.marker);
    }
    await h.db.updateTable('sites').set({ hostname: null }).where('id', '=', b.siteId).execute();
    await setCustomHostname(a.orgId, null);
  });

  it('two organizations cannot have the same custom hostname', async () => {
    const host = freshHost('dup');
    await setCustomHostname(a.orgId, host);
    await expect(setCustomHostname(b.orgId, host)).rejects.toThrow();
    await setCustomHostname(a.orgId, null);
  });
});

describe('share links', () => {
  let sa: Tenant;
  let sb: Tenant;
  let keyA: string;
  let keyB: string;
  beforeAll(async () => {
    sa = await tenant(`ShareAlpha-${newId(6)}`, 'share-link');
    sb = await tenant(`ShareBeta-${newId(6)}`, 'share-link');
    const keyOf = async (t: Tenant) => {
      const link = await t.admin.client.post(`${t.api}/share-links`, { name: 'Readers' });
      expect(link.status).toBe(201);
      return new URL(link.body.urls.published).searchParams.get('share') as string;
    };
    keyA = await keyOf(sa);
    keyB = await keyOf(sb);
  });

  /** Follows a share link: the cookie it sets, after checking it comes back without the key. */
  async function follow(url: string, headers: Record<string, string> = {}) {
    const res = await get(url, headers);
    expect(res.status, url).toBe(302);
    return String(res.headers['set-cookie']).split(';')[0] as string;
  }

  it("a link opens its own site by id, by hostname and on the organization's host", async () => {
    const cookie = await follow(`/sites/${sa.orgId}/docs?share=${keyA}`);
    await expectServes(`/sites/${sa.orgId}/docs`, sa, sb, { cookie });
    const hostname = `share-${newId(8).toLowerCase()}`;
    expect((await sa.admin.client.patch(`/v1/orgs/${sa.orgId}`, { hostname })).status).toBe(200);
    const byName = await follow(`/sites/${hostname}/docs?share=${keyA}`);
    await expectServes(`/sites/${hostname}/docs`, sa, sb, { cookie: byName });
    const host = freshHost('share');
    await setCustomHostname(sa.orgId, host);
    const onHost = await follow(`/docs?share=${keyA}`, { host });
    await expectServes('/docs', sa, sb, { host, cookie: onHost });
    await setCustomHostname(sa.orgId, null);
  });

  it("one organization's key or cookie never opens the other's site, by any address", async () => {
    const hostname = `shareb-${newId(8).toLowerCase()}`;
    expect((await sa.admin.client.patch(`/v1/orgs/${sa.orgId}`, { hostname })).status).toBe(200);
    const host = freshHost('shareb');
    await setCustomHostname(sa.orgId, host);
    const addresses: Array<[string, Record<string, string>]> = [
      [`/sites/${sa.orgId}/docs`, {}],
      [`/sites/${hostname}/docs`, {}],
      ['/docs', { host }],
    ];
    for (const [path, headers] of addresses) {
      const withKey = await get(`${path}?share=${keyB}`, headers);
      expect(withKey.status, path).toBe(404);
      expect(withKey.body).not.toContain(sa.marker);
      // B's key, in the cookie of A's site or of B's own.
      for (const cookie of [`bindery_share_${sa.siteId}=${keyB}`, `bindery_share_${sb.siteId}=${keyB}`]) {
        const res = await get(path, { ...headers, cookie });
        expect(res.status, `${path} ${cookie}`).toBe(404);
        expect(res.body).not.toContain(sa.marker);
      }
    }
    await setCustomHostname(sa.orgId, null);
  });
});
