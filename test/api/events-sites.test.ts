/**
 * Site changes that record an event since "every change records what happened" (customization of
 * the site and of a site space, ads, redirects, share-link updates, visitor authentication), read
 * back from the audit log of the site's organization: type, actor, target and the object as the API
 * presents it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { type AuditItem, auditEvents, recorded } from '../helpers/audit.js';

const PARTNER_KEY = 'partner-key-events-0123456789';

let h: Harness;
beforeAll(async () => {
  h = await createHarness({ partnerKeys: [PARTNER_KEY] });
});
afterAll(async () => {
  await h?.close();
});

/** An organization with a site made of one space. */
async function siteWorld(options: { visibility?: string } = {}) {
  const { id: org, admin } = await h.org();
  const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Guide' })).body;
  const site = await admin.client.post(`/v1/orgs/${org}/sites`, { title: 'Docs', spaces: [space.id], ...options });
  expect(site.status).toBe(201);
  return { org, admin, site: site.body, base: `/v1/orgs/${org}/sites/${site.body.id}` };
}

describe('customization', () => {
  it('of the site and of a site space records site.customization.updated and site.space_customization.updated', async () => {
    const { org, admin, site, base } = await siteWorld();
    const put = await admin.client.put(`${base}/customization`, { styling: { theme: 'muted' } });
    expect(put.status).toBe(200);
    const event = await recorded(admin.client, org, 'site.customization.updated', {
      actor: admin.user.id,
      target: { type: 'site', id: site.id },
    });
    expect(event.payload.object).toEqual(put.body);
    expect(event.payload.previous).toMatchObject({ styling: expect.objectContaining({ theme: 'clean' }) });

    const siteSpace = (await admin.client.get(`${base}/site-spaces`)).body.items[0];
    const url = `${base}/site-spaces/${siteSpace.id}/customization`;
    const patched = await admin.client.patch(url, { title: 'Variant' });
    expect(patched.status).toBe(200);
    expect((await admin.client.delete(url)).status).toBe(204);
    const events = await auditEvents(admin.client, org, 'site.space_customization.updated');
    expect(events.map((e) => [e.actor.id, e.target.type, e.target.id])).toEqual([
      [admin.user.id, 'site-space', siteSpace.id],
      [admin.user.id, 'site-space', siteSpace.id],
    ]);
    const [removed, overridden] = events as [AuditItem, AuditItem];
    const details = async (id: string) => (await admin.client.get(`/v1/orgs/${org}/audit-events/${id}`)).body.payload;
    expect((await details(overridden.id)).object).toEqual(patched.body);
    expect((await details(removed.id)).object.title).not.toBe('Variant');
  });
});

describe('ads', () => {
  it("the admin's submission and the partner's decision record site.ads.updated", async () => {
    const { org, admin, site, base } = await siteWorld({ visibility: 'public' });
    expect((await admin.client.post(`${base}/publish`)).status).toBeLessThan(300);
    expect((await admin.client.post(`${base}/ads`, { status: 'in-review', topic: 'webdev' })).status).toBe(204);
    const partner = await h.user();
    const decided = await partner.client.request(
      'PATCH',
      `/v1/ads/sites/${site.id}`,
      { status: 'live', zoneId: 'z1', reportingId: 'r1' },
      { 'x-service-partner-key': PARTNER_KEY },
    );
    expect(decided.status).toBe(204);

    const events = await auditEvents(admin.client, org, 'site.ads.updated');
    expect(events.map((e) => [e.actor.id, e.target.id])).toEqual([
      [partner.user.id, site.id],
      [admin.user.id, site.id],
    ]);
    const [live, submitted] = events as [AuditItem, AuditItem];
    const details = async (id: string) => (await admin.client.get(`/v1/orgs/${org}/audit-events/${id}`)).body.payload;
    expect((await details(submitted.id)).object).toEqual({ object: 'site-ads', status: 'in-review', topic: 'webdev' });
    expect(await details(live.id)).toEqual({
      object: { object: 'site-ads', status: 'live', topic: 'webdev', zoneId: 'z1' },
      previous: { status: 'in-review', zoneId: null },
    });
  });
});

describe('redirects', () => {
  it('create, update and delete record site.redirect.*', async () => {
    const { org, admin, base } = await siteWorld();
    const created = await admin.client.post(`${base}/redirects`, {
      source: '/old',
      destination: { kind: 'external', url: 'https://example.test/' },
    });
    expect(created.status).toBe(201);
    const target = { type: 'site-redirect', id: created.body.id };
    const updated = await admin.client.patch(`${base}/redirects/${created.body.id}`, { source: '/older' });
    expect(updated.status).toBe(200);
    expect((await admin.client.delete(`${base}/redirects/${created.body.id}`)).status).toBe(204);

    const create = await recorded(admin.client, org, 'site.redirect.created', { actor: admin.user.id, target });
    expect(create.payload.object).toEqual(created.body);
    const update = await recorded(admin.client, org, 'site.redirect.updated', { actor: admin.user.id, target });
    expect(update.payload).toEqual({ object: updated.body, previous: { source: '/old' } });
    await recorded(admin.client, org, 'site.redirect.deleted', { actor: admin.user.id, target });
  });
});

describe('share links', () => {
  it('an update records share_link.updated with the link as stored now', async () => {
    const { org, admin, base } = await siteWorld({ visibility: 'share-link' });
    const link = await admin.client.post(`${base}/share-links`, { name: 'Partners' });
    expect(link.status).toBe(201);
    const updated = await admin.client.patch(`${base}/share-links/${link.body.id}`, { active: false });
    expect(updated.status).toBe(200);
    const event = await recorded(admin.client, org, 'share_link.updated', {
      actor: admin.user.id,
      target: { type: 'share-link', id: link.body.id },
    });
    expect(event.payload.object).toEqual(updated.body);
  });
});

describe('visitor authentication', () => {
  it('an update and a new key record site.publishing_auth.*, never with the private key', async () => {
    const { org, admin, site, base } = await siteWorld();
    const updated = await admin.client.patch(`${base}/publishing/auth`, {
      backend: 'custom',
      fallbackURL: 'https://login.example.test/',
    });
    expect(updated.status).toBe(200);
    const regenerated = await admin.client.post(`${base}/publishing/auth/regenerate`);
    expect(regenerated.status).toBe(200);
    const target = { type: 'site', id: site.id };
    const update = await recorded(admin.client, org, 'site.publishing_auth.updated', { actor: admin.user.id, target });
    expect(update.payload.object).toEqual({
      object: 'site-publishing-auth',
      backend: 'custom',
      fallbackUrl: 'https://login.example.test/',
      logoutUrl: null,
    });
    const rotated = await recorded(admin.client, org, 'site.publishing_auth.key_rotated', {
      actor: admin.user.id,
      target,
    });
    const log = JSON.stringify([update.payload, rotated.payload]);
    expect(log).not.toContain(updated.body.privateKey);
    expect(log).not.toContain(regenerated.body.privateKey);
  });
});
