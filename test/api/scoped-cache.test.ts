/**
 * Invalidation scoped to what a write can change (src/db/write-scope.ts): a write in one
 * organization leaves another organization's kept answers in memory, while every answer that shows
 * what changed — in the organization written, or across organizations for a user's memberships,
 * profile and tokens — is computed anew on the next request: never a stale answer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Client, createHarness, type Harness } from '../helpers/app.js';
import { cacheReads } from '../helpers/cache-hits.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';

// A database of this file's own: other files' writes to a shared PostgreSQL database reach this
// app as other processes' changes, and the hits expected here would come and go.
let database: FreshDatabase;
let h: Harness;
beforeAll(async () => {
  database = await freshDatabase('scoped-cache');
  h = await createHarness({ ownDatabase: database.url });
});
afterAll(async () => {
  await h?.close();
  await database?.drop();
});
const { get, keep } = cacheReads(() => h);

/** Expects every URL to be answered from memory, with the same body as before. */
async function stillKept(client: Client, urls: string[], what: string) {
  for (const url of urls) expect((await get(client, url)).hit, `${url} after ${what}`).toBe(true);
}

describe('a write in one organization', () => {
  it("leaves another organization's kept answers in memory, and is seen in its own", async () => {
    const a = await h.space('A docs');
    const b = await h.space('B docs');
    const c = a.admin.client;
    const cr = (await c.post(`${a.base}/change-requests`, { subject: 'Autosave' })).body;
    const content = `${a.base}/change-requests/${cr.id}/content`;
    const inserted = await c.post(content, {
      changes: [{ operation: 'insert_page', title: 'Intro', document: { markdown: 'First draft' } }],
    });
    expect(inserted.status).toBe(200);
    const pageId = (await c.get(content)).body.pages[0].id as string;
    const page = `${content}/page/${pageId}?format=markdown`;

    const bUrls = [
      `/v1/orgs/${b.orgId}`,
      b.base,
      `/v1/orgs/${b.orgId}/spaces`,
      `/v1/orgs/${b.orgId}/members`,
      `${b.base}/content`,
      `${b.base}/change-requests`,
      '/v1/orgs',
      '/v1/user',
    ];
    await keep(b.admin.client, bUrls);
    await keep(c, [page, a.base, `${a.base}/change-requests/${cr.id}`]);

    // An autosave: a batch edit of the page in the change request.
    const saved = await c.post(content, {
      changes: [{ operation: 'update_page', page: pageId, document: { markdown: 'Second draft' } }],
    });
    expect(saved.status).toBe(200);
    await stillKept(b.admin.client, bUrls, 'an autosave in another organization');
    const edited = await get(c, page);
    expect(edited.hit).toBe(false);
    expect(edited.res.body.markdown).toContain('Second draft');

    // A comment on the change request.
    await keep(c, [`${a.base}/change-requests/${cr.id}`]);
    const comment = await c.post(`${a.base}/change-requests/${cr.id}/comments`, { body: { markdown: 'Looks good' } });
    expect(comment.status).toBe(201);
    await stillKept(b.admin.client, bUrls, 'a comment in another organization');
    expect((await get(c, `${a.base}/change-requests/${cr.id}`)).hit).toBe(false);

    // A rename of the space.
    const renamed = await c.patch(a.base, { title: 'A renamed' });
    expect(renamed.status).toBe(200);
    await stillKept(b.admin.client, bUrls, 'a rename in another organization');
    const space = await get(c, a.base);
    expect(space.hit).toBe(false);
    expect(space.res.body.title).toBe('A renamed');
  });
});

describe('facts read across organizations', () => {
  it('sees a member added and removed at once in the user’s list of organizations and in who may see whom', async () => {
    const a = await h.org({ title: 'Alpha' });
    const b = await h.org({ title: 'Beta' });
    const u = await h.member(b.id, 'read', { name: 'Una' });
    const orgsOf = async () => ((await get(u.client, '/v1/orgs')).res.body.items as { id: string }[]).map((o) => o.id);
    await keep(u.client, ['/v1/orgs', `/v1/orgs/${b.id}`, '/v1/user']);
    await keep(b.admin.client, [`/v1/orgs/${b.id}/members`, `/v1/users/${u.user.id}`]);
    expect(await orgsOf()).toEqual([b.id]);
    expect((await a.admin.client.get(`/v1/users/${u.user.id}`)).status).toBe(404);

    const invited = await a.admin.client.post(`/v1/orgs/${a.id}/invites`, { emails: [u.user.email], role: 'read' });
    expect(invited.status).toBeLessThan(300);
    expect((await orgsOf()).sort()).toEqual([a.id, b.id].sort());
    expect((await a.admin.client.get(`/v1/users/${u.user.id}`)).status).toBe(200);
    expect((await get(u.client, `/v1/orgs/${a.id}`)).res.body.id).toBe(a.id);
    const members = (await a.admin.client.get(`/v1/orgs/${a.id}/members`)).body.items as { user: { id: string } }[];
    expect(members.map((m) => m.user.id)).toContain(u.user.id);

    // Removing the member: the list, who may see whom and the organization itself follow at once.
    await keep(u.client, ['/v1/orgs', `/v1/orgs/${a.id}`]);
    await keep(a.admin.client, [`/v1/users/${u.user.id}`, `/v1/orgs/${a.id}/members`]);
    await keep(b.admin.client, [`/v1/orgs/${b.id}/members`]);
    expect((await a.admin.client.delete(`/v1/orgs/${a.id}/members/${u.user.id}`)).status).toBe(204);
    expect(await orgsOf()).toEqual([b.id]);
    expect((await u.client.get(`/v1/orgs/${a.id}`)).status).toBe(404);
    expect((await a.admin.client.get(`/v1/users/${u.user.id}`)).status).toBe(404);
    const after = (await a.admin.client.get(`/v1/orgs/${a.id}/members`)).body.items as { user: { id: string } }[];
    expect(after.map((m) => m.user.id)).not.toContain(u.user.id);
    // Organization B did not change: its answers stay in memory.
    await stillKept(b.admin.client, [`/v1/orgs/${b.id}/members`], 'a member removed from another organization');
  });

  it("sees a user's new profile at once in every organization's answers that show the user", async () => {
    const a = await h.org();
    const b = await h.org();
    const u = await h.member(a.id, 'read', { name: 'Before' });
    const invited = await b.admin.client.post(`/v1/orgs/${b.id}/invites`, { emails: [u.user.email], role: 'read' });
    expect(invited.status).toBeLessThan(300);
    const shown = [
      [u.client, '/v1/user'],
      [b.admin.client, `/v1/users/${u.user.id}`],
      [b.admin.client, `/v1/orgs/${b.id}/members/${u.user.id}`],
      [a.admin.client, `/v1/orgs/${a.id}/members/${u.user.id}`],
    ] as const;
    for (const [client, url] of shown) await keep(client, [url]);
    expect((await u.client.patch(`/v1/users/${u.user.id}`, { displayName: 'After' })).status).toBe(200);
    for (const [client, url] of shown) {
      const body = (await get(client, url)).res.body;
      expect(JSON.stringify(body), url).toContain('"After"');
      expect(JSON.stringify(body), url).not.toContain('"Before"');
    }
  });

  it('refuses a revoked token at once, though its answers were kept', async () => {
    const b = await h.org();
    const u = await h.member(b.id, 'read');
    const created = await u.client.post('/v1/user/tokens', { label: 'second' });
    expect(created.status).toBe(201);
    const second = new (u.client.constructor as typeof Client)(h.app, created.body.token as string);
    const urls = ['/v1/user', '/v1/orgs', `/v1/orgs/${b.id}`];
    await keep(second, urls);
    expect((await u.client.delete(`/v1/user/tokens/${created.body.id}`)).status).toBe(204);
    for (const url of urls) expect((await second.get(url)).status, url).toBe(401);
    // The other token of the same user still reads.
    for (const url of urls) expect((await u.client.get(url)).status, url).toBe(200);
  });
});
