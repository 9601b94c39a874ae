import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createHarness, type Harness } from '../helpers/app.js';

const KEY = 'partner-key-0123456789';
let h: Harness;
beforeAll(async () => {
  h = await createHarness({ partnerKeys: [KEY, 'another-partner-key-42'] });
});
afterAll(async () => h.close());

/** A published public site submitted for ads review. */
async function submittedSite(topic = 'webdev') {
  const org = await h.org();
  const c = org.admin.client;
  const site = (await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', visibility: 'public' })).body;
  expect((await c.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`)).status).toBeLessThan(300);
  expect((await c.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { status: 'in-review', topic })).status).toBe(204);
  return { org, site };
}

const partner = (client: Client, method: string, url: string, body?: unknown, key: string | null = KEY) =>
  client.request(method, url, body, key ? { 'x-service-partner-key': key } : {});

describe('partner ads', () => {
  it('a site admin submits a published public site; the partner lists it, filtered by status', async () => {
    const { org, site } = await submittedSite();
    const asSite = await org.admin.client.get(`/v1/orgs/${org.id}/sites/${site.id}`);
    expect(asSite.body.ads).toEqual({ status: 'in-review', topic: 'webdev' });
    const p = (await h.user()).client;
    const list = await partner(p, 'GET', '/v1/ads/sites?limit=1000');
    expect(list.status).toBe(200);
    const item = list.body.items.find((i: { id: string }) => i.id === site.id);
    expect(item).toMatchObject({ status: 'in-review', topic: 'webdev', email: org.admin.user.email });
    expect(item.url).toMatch(/^http/);
    expect(
      (await partner(p, 'GET', '/v1/ads/sites?status=live&limit=1000')).body.items.map((i: { id: string }) => i.id),
    ).not.toContain(site.id);
    expect((await partner(p, 'GET', '/v1/ads/sites?status=pending')).status).toBe(400);
  });

  it('the partner decision shows in the site ads field', async () => {
    const { org, site } = await submittedSite('crypto');
    const p = (await h.user()).client;
    const live = await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, {
      status: 'live',
      zoneId: 'z1',
      reportingId: 'r1',
    });
    expect(live.status).toBe(204);
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/sites/${site.id}`)).body.ads).toEqual({
      status: 'live',
      topic: 'crypto',
      zoneId: 'z1',
    });
    const listed = await partner(p, 'GET', '/v1/ads/sites?status=live&limit=1000');
    expect(listed.body.items.find((i: { id: string }) => i.id === site.id)).toMatchObject({
      status: 'live',
      zoneId: 'z1',
    });
    await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, { status: 'rejected', reason: 'not a fit' });
    expect((await org.admin.client.get(`/v1/orgs/${org.id}/sites/${site.id}`)).body.ads).toEqual({
      status: 'rejected',
      reason: 'not a fit',
    });
    expect(
      (await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, { status: 'rejected', reason: 'x'.repeat(513) })).status,
    ).toBe(400);
    expect((await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, { status: 'live', zoneId: 'z' })).status).toBe(400);
    expect((await partner(p, 'PATCH', '/v1/ads/sites/nope', { status: 'pending' })).status).toBe(404);
  });

  it('refuses missing (401) and wrong (403) partner keys, on top of the bearer token', async () => {
    const { site } = await submittedSite();
    const p = (await h.user()).client;
    const missing = await partner(p, 'GET', '/v1/ads/sites', undefined, null);
    expect(missing.status).toBe(401);
    expect(missing.body.error.message).toContain('X-Service-Partner-Key');
    expect((await partner(p, 'GET', '/v1/ads/sites', undefined, 'wrong-key-wrong-key')).status).toBe(403);
    expect((await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, { status: 'pending' }, 'wrong')).status).toBe(403);
    expect((await partner(h.anonymous, 'GET', '/v1/ads/sites')).status).toBe(401);
    const other = await p.request('GET', '/v1/ads/sites', undefined, {
      'x-gitbook-partner-key': 'another-partner-key-42',
    });
    expect(other.status).toBe(200);
  });

  it('only a published public site can be submitted, by an admin; a partner cannot touch unsubmitted sites', async () => {
    const org = await h.org();
    const c = org.admin.client;
    const site = (await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', visibility: 'public' })).body;
    expect((await c.get(`/v1/orgs/${org.id}/sites/${site.id}`)).body.ads).toEqual({
      status: 'pending',
      submittable: false,
    });
    expect(
      (await c.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { status: 'in-review', topic: 'webdev' })).status,
    ).toBe(400);
    const p = (await h.user()).client;
    expect(
      (await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, { status: 'live', zoneId: 'z', reportingId: 'r' })).status,
    ).toBe(409);
    await c.post(`/v1/orgs/${org.id}/sites/${site.id}/publish`);
    expect((await c.get(`/v1/orgs/${org.id}/sites/${site.id}`)).body.ads).toEqual({
      status: 'pending',
      submittable: true,
    });
    expect((await c.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { status: 'in-review' })).status).toBe(400);
    const editor = await h.member(org.id, 'create');
    expect(
      (await editor.client.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { status: 'in-review', topic: 'webdev' }))
        .status,
    ).toBe(403);
    expect(
      (await (await h.user()).client.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { topic: 'webdev' })).status,
    ).toBe(404);
    expect((await c.post(`/v1/orgs/${org.id}/sites/${site.id}/ads`, { status: 'disabled' })).status).toBe(204);
    expect((await c.get(`/v1/orgs/${org.id}/sites/${site.id}`)).body.ads.status).toBe('disabled');
  });
});

describe('partner ads against the official document', () => {
  it('every body conforms to the official schema of its operation', async () => {
    const { assertRequestConforms, assertResponseConforms } = await import('../contract/validate.js');
    const { org, site } = await submittedSite();
    const p = (await h.user()).client;
    const submit = { status: 'in-review', topic: 'webdev' };
    assertRequestConforms('updateSiteAdsById', submit);
    const list = await partner(p, 'GET', '/v1/ads/sites?limit=1000');
    assertResponseConforms('adsListSites', list.status, list.body);
    const decision = { status: 'live', zoneId: 'z', reportingId: 'r' };
    assertRequestConforms('adsUpdateSite', decision);
    expect((await partner(p, 'PATCH', `/v1/ads/sites/${site.id}`, decision)).status).toBe(204);
    const live = await partner(p, 'GET', '/v1/ads/sites?status=live&limit=1000');
    assertResponseConforms('adsListSites', live.status, live.body);
    const got = await org.admin.client.get(`/v1/orgs/${org.id}/sites/${site.id}`);
    assertResponseConforms('getSiteById', got.status, got.body);
  });
});
