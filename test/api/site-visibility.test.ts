/**
 * Who decides who can read a site: changing its `visibility` needs the role publishing needs
 * (`admin`), like publishing and the visitor authentication. A `create` member, who may change the
 * site's other settings, gets a 403 and nothing changes (the published site stays closed); an
 * outsider or a guest does not see the site (404).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness } from '../helpers/app.js';
import { edit } from '../helpers/published.js';
import { newSpace, sitesUrl } from '../helpers/sites.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h.close());

/** A published site of `visibility` with one space; its API path and its published address path. */
async function publishedSite(visibility: string) {
  const org = await h.org();
  const space = await newSpace(org.id, org.admin);
  await edit(org.admin.client, space, [() => [{ operation: 'insert_page', title: 'Welcome', document: {} }]]);
  const created = await org.admin.client.post(sitesUrl(org.id), { title: 'Docs', spaces: [space], visibility });
  expect(created.status).toBe(201);
  const url = `${sitesUrl(org.id)}/${created.body.id}`;
  const published = await org.admin.client.post(`${url}/publish`);
  expect(published.status).toBe(200);
  return { org, url, address: new URL(published.body.urls.published as string).pathname };
}

describe('site visibility', () => {
  for (const visibility of ['share-link', 'visitor-auth']) {
    it(`a create member cannot open a ${visibility} site to everyone (403, nothing changes); an admin can`, async () => {
      const { org, url, address } = await publishedSite(visibility);
      const creator = await h.member(org.id, 'create');
      const closed = (await h.anonymous.get(address)).status;
      expect([302, 401, 404]).toContain(closed);

      const refused = await creator.client.patch(url, { visibility: 'public', title: 'Opened' });
      expect(refused.status).toBe(403);
      expect(refused.body.error.message).toBe('you need the admin role in the organization to change its visibility');
      const after = await org.admin.client.get(url);
      expect(after.body).toMatchObject({ visibility, title: 'Docs' });
      expect((await h.anonymous.get(address)).status).toBe(closed);
      const events = (await org.admin.client.get(`/v1/orgs/${org.id}/audit-events`)).body.items;
      expect(events.map((e: { action: string }) => e.action)).not.toContain('site.updated');

      // Any other visibility is refused too; the same visibility again, with other settings, is not a change of it.
      expect((await creator.client.patch(url, { visibility: 'unlisted' })).status).toBe(403);
      const same = await creator.client.patch(url, { visibility, title: 'Renamed' });
      expect(same.status, JSON.stringify(same.body)).toBe(200);
      expect(same.body).toMatchObject({ visibility, title: 'Renamed' });
      // The visitor authentication is the publisher's too.
      expect((await creator.client.patch(`${url}/publishing/auth`, { backend: 'custom' })).status).toBe(403);

      const opened = await org.admin.client.patch(url, { visibility: 'public' });
      expect(opened.status).toBe(200);
      expect(opened.body.visibility).toBe('public');
      expect((await h.anonymous.get(address)).status).toBe(200);
    });
  }

  it('outsiders and guests do not see the site (404), whatever they send', async () => {
    const { org, url } = await publishedSite('share-link');
    const outsider = await h.user();
    const guest = await h.member(org.id, null);
    const otherAdmin = (await h.org()).admin;
    for (const who of [outsider, guest, otherAdmin]) {
      expect((await who.client.patch(url, { visibility: 'public' })).status).toBe(404);
    }
    expect((await org.admin.client.get(url)).body.visibility).toBe('share-link');
  });
});
