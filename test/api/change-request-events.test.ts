/**
 * Change-request and content events: created, updated (subject, content), closed, merged, and
 * space.content.updated with the pages a merge added, changed and removed; a batch edit that fails
 * and a merge refused with 409 record nothing.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';

let h: Harness;
beforeAll(async () => {
  h = await createHarness();
});
afterAll(async () => h?.close());

async function audit(admin: TestUser, org: string, query = '') {
  const res = await admin.client.get(`/v1/orgs/${org}/audit-events?limit=100${query}`);
  expect(res.status).toBe(200);
  return res.body.items as { id: string; action: string; target: { type: string; id: string } }[];
}
const payload = async (admin: TestUser, org: string, id: string) =>
  (await admin.client.get(`/v1/orgs/${org}/audit-events/${id}`)).body.payload;

async function setup() {
  const { id: org, admin } = await h.org();
  const space = (await admin.client.post(`/v1/orgs/${org}/spaces`, { title: 'Docs' })).body;
  const base = `/v1/spaces/${space.id}`;
  const newCr = async (subject: string) => (await admin.client.post(`${base}/change-requests`, { subject })).body;
  const batch = (cr: string, changes: unknown[]) =>
    admin.client.post(`${base}/change-requests/${cr}/content?compat=false`, { changes });
  return { org, admin, space, base, newCr, batch };
}

describe('change request events', () => {
  it('records created, updated, merged and space.content.updated with the pages', async () => {
    const { org, admin, space, base, newCr, batch } = await setup();
    const cr = await newCr('Seed');
    const made = await batch(cr.id, [
      { operation: 'insert_page', title: 'One', document: { markdown: 'one' } },
      { operation: 'insert_page', title: 'Two', document: { markdown: 'two' } },
    ]);
    expect(made.status).toBe(200);
    expect((await admin.client.patch(`${base}/change-requests/${cr.id}`, { subject: 'Seed pages' })).status).toBe(200);
    expect((await admin.client.post(`${base}/change-requests/${cr.id}/merge`)).status).toBe(200);

    const events = await audit(admin, org, `&target=${cr.id}`);
    expect(events.map((e) => e.action)).toEqual([
      'change_request.merged',
      'change_request.updated',
      'change_request.updated',
      'change_request.created',
    ]);
    const [merged, renamed, , created] = events as [any, any, any, any];
    expect((await payload(admin, org, created.id)).object).toMatchObject({ object: 'change-request', id: cr.id });
    expect((await payload(admin, org, renamed.id)).previous).toMatchObject({ subject: 'Seed' });
    expect((await payload(admin, org, merged.id)).object.status).toBe('merged');

    const [content] = (await audit(admin, org, '&action=space.content.updated')) as [any];
    expect(content.target).toEqual({ type: 'space', id: space.id, label: 'Docs' });
    const data = await payload(admin, org, content.id);
    const live = (await admin.client.get(base)).body.revision;
    expect(data.object.revision).toBe(live);
    expect(data.object.pages.added.map((p: { title: string }) => p.title).sort()).toEqual(['One', 'Two']);
    expect(data.object.pages.changed).toEqual([]);
    expect(data.object.pages.removed).toEqual([]);

    // A second merge that edits one page and removes the other.
    const [one, two] = made.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const next = await newCr('Edit');
    await batch(next.id, [
      { operation: 'update_page', page: one, title: 'One!' },
      { operation: 'delete_page', page: two },
    ]);
    expect((await admin.client.post(`${base}/change-requests/${next.id}/merge`)).status).toBe(200);
    const [latest] = (await audit(admin, org, '&action=space.content.updated')) as [any];
    const pages = (await payload(admin, org, latest.id)).object.pages;
    expect(pages.changed.map((p: { id: string }) => p.id)).toEqual([one]);
    expect(pages.removed.map((p: { id: string }) => p.id)).toEqual([two]);
    expect(pages.added).toEqual([]);
  });

  it('records change_request.closed when archived', async () => {
    const { org, admin, base, newCr } = await setup();
    const cr = await newCr('Abandon');
    expect((await admin.client.patch(`${base}/change-requests/${cr.id}`, { status: 'archived' })).status).toBe(200);
    const [closed] = (await audit(admin, org, `&target=${cr.id}`)) as [any];
    expect(closed.action).toBe('change_request.closed');
    expect((await payload(admin, org, closed.id)).previous).toMatchObject({ status: 'open' });
  });

  it('records nothing for a batch edit that fails (rolled back) or a merge refused with 409', async () => {
    const { org, admin, base, newCr, batch } = await setup();
    const seed = await newCr('Seed');
    const made = await batch(seed.id, [{ operation: 'insert_page', title: 'One', document: { markdown: 'one' } }]);
    await admin.client.post(`${base}/change-requests/${seed.id}/merge`);
    const [one] = made.body.changes.map((c: { page: { id: string } }) => c.page.id);
    const a = await newCr('A');
    const b = await newCr('B');
    await batch(a.id, [{ operation: 'update_page', page: one, document: { markdown: 'A' } }]);
    await batch(b.id, [{ operation: 'update_page', page: one, document: { markdown: 'B' } }]);
    expect((await admin.client.post(`${base}/change-requests/${a.id}/merge`)).status).toBe(200);
    const before = await audit(admin, org);

    // A batch whose second change names a page that does not exist: nothing of it is kept.
    const failed = await batch(b.id, [
      { operation: 'insert_page', title: 'Kept?', document: { markdown: 'no' } },
      { operation: 'update_page', page: 'no-such-page', title: 'x' },
    ]);
    expect(failed.status).toBeGreaterThanOrEqual(400);
    expect(failed.status).toBeLessThan(500);
    // The same page changed on both sides: 409.
    expect((await admin.client.post(`${base}/change-requests/${b.id}/merge`)).status).toBe(409);

    expect(await audit(admin, org)).toEqual(before);
    const content = (await admin.client.get(`${base}/change-requests/${b.id}/content`)).body;
    expect(JSON.stringify(content)).not.toContain('Kept?');
  });
});
