/**
 * Two servers on one database (as two processes, or two workers of a cluster): what one changes
 * through its API, the other's published sites follow as soon as it learns of the change (the change
 * feed: SQLite's data version on its next request, PostgreSQL's notification), not after a timer.
 * A reader holding a share link's cookie, or an address of a site, is refused at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../src/lib/ids.js';
import { createHarness, type Harness, type TestUser } from '../helpers/app.js';
import { type FreshDatabase, freshDatabase } from '../helpers/fresh-db.js';
import { edit } from '../helpers/published.js';

// A database of this file's own: both servers must see each other's changes and nothing else's.
let database: FreshDatabase;
/** The server the changes are made through. */
let one: Harness;
/** The server that reads the sites. */
let two: Harness;
let barrierOrg: string;
beforeAll(async () => {
  database = await freshDatabase('published-coherence');
  one = await createHarness({ ownDatabase: database.url });
  two = await createHarness({ ownDatabase: database.url });
  barrierOrg = (await one.org()).id;
}, 120_000);
afterAll(async () => {
  await two?.close();
  await one?.close();
  await database?.drop();
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const read = (url: string, headers: Record<string, string> = {}) =>
  two.anonymous.request('GET', url, undefined, headers);

/**
 * Returns once `two` knows of every change committed so far. SQLite: `two` reads the data version
 * at the start of its next request (at most once a millisecond). PostgreSQL: one more change is
 * committed, and notifications arrive in commit order, so once `two` has counted it, it has counted
 * those before it too.
 */
async function learnt() {
  if (!database.postgres) return sleep(2);
  const before = two.app.published.generation();
  await one.db
    .updateTable('organizations')
    .set({ title: `Barrier ${newId(4)}` })
    .where('id', '=', barrierOrg)
    .execute();
  for (let i = 0; i < 500 && two.app.published.generation() === before; i++) await sleep(10);
  expect(two.app.published.generation()).not.toBe(before);
}

interface World {
  orgId: string;
  admin: TestUser;
  api: string;
  marker: string;
}

/** A published site (basename `docs`) made through `one`, whose page says a marker of its own. */
async function site(visibility = 'public'): Promise<World> {
  const org = await one.org();
  const c = org.admin.client;
  const marker = `Coherent-${newId(6)}`;
  const space = (await c.post(`/v1/orgs/${org.id}/spaces`, { title: 'Handbook' })).body.id as string;
  await edit(c, space, [() => [{ operation: 'insert_page', title: 'Welcome', document: { markdown: marker } }]]);
  const created = await c.post(`/v1/orgs/${org.id}/sites`, { title: 'Docs', spaces: [space], visibility });
  expect(created.status).toBe(201);
  const api = `/v1/orgs/${org.id}/sites/${created.body.id}`;
  expect((await c.post(`${api}/publish`)).status).toBe(200);
  return { orgId: org.id, admin: org.admin, api, marker };
}

/** `two` refuses `url` and shows nothing of the site. */
async function expectRefused(w: World, url: string, headers: Record<string, string> = {}) {
  const res = await read(url, headers);
  expect(res.status, url).toBe(404);
  expect(String(res.body)).not.toContain(w.marker);
}

describe("the other server's published sites follow the change feed", () => {
  it('an unpublished site is a 404 there on its next request', async () => {
    const w = await site();
    await learnt();
    expect((await read(`/sites/${w.orgId}/docs`)).body).toContain(w.marker);
    expect((await read(`/sites/${w.orgId}/docs`)).body).toContain(w.marker); // now from memory
    expect((await w.admin.client.post(`${w.api}/unpublish`)).status).toBe(200);
    await learnt();
    await expectRefused(w, `/sites/${w.orgId}/docs`);
    expect((await w.admin.client.post(`${w.api}/publish`)).status).toBe(200);
    await learnt();
    expect((await read(`/sites/${w.orgId}/docs`)).status).toBe(200);
  });

  it("a deactivated share link: its holder's cookie and the link itself are refused at once", async () => {
    const w = await site('share-link');
    const link = await w.admin.client.post(`${w.api}/share-links`, { name: 'Readers' });
    const key = new URL(link.body.urls.published).searchParams.get('share') as string;
    await learnt();
    const followed = await read(`/sites/${w.orgId}/docs?share=${key}`);
    expect(followed.status).toBe(302);
    const cookie = String(followed.headers['set-cookie']).split(';')[0] as string;
    expect((await read(`/sites/${w.orgId}/docs`, { cookie })).body).toContain(w.marker);
    expect((await read(`/sites/${w.orgId}/docs`, { cookie })).body).toContain(w.marker);
    expect((await w.admin.client.patch(`${w.api}/share-links/${link.body.id}`, { active: false })).status).toBe(200);
    await learnt();
    await expectRefused(w, `/sites/${w.orgId}/docs`, { cookie });
    await expectRefused(w, `/sites/${w.orgId}/docs?share=${key}`);
  });

  it("a changed hostname: the old address stops naming the organization's site at once", async () => {
    const w = await site();
    const first = `first-${newId(8).toLowerCase()}`;
    expect((await w.admin.client.patch(`/v1/orgs/${w.orgId}`, { hostname: first })).status).toBe(200);
    await learnt();
    expect((await read(`/sites/${first}/docs`)).body).toContain(w.marker);
    const second = `second-${newId(8).toLowerCase()}`;
    expect((await w.admin.client.patch(`/v1/orgs/${w.orgId}`, { hostname: second })).status).toBe(200);
    await learnt();
    await expectRefused(w, `/sites/${first}/docs`);
    expect((await read(`/sites/${second}/docs`)).body).toContain(w.marker);
  });

  it('a removed proxy: its host stops serving the site at once', async () => {
    const w = await site();
    const host = `proxy-${newId(8).toLowerCase()}.test`;
    await one.db.updateTable('organizations').set({ custom_hostname: host }).where('id', '=', w.orgId).execute();
    expect((await w.admin.client.patch(w.api, { proxy: `${host}/help` })).status).toBe(200);
    await learnt();
    expect((await read('/help', { host })).body).toContain(w.marker);
    expect((await read('/help', { host })).body).toContain(w.marker);
    expect((await w.admin.client.patch(w.api, { proxy: null })).status).toBe(200);
    await learnt();
    await expectRefused(w, '/help', { host });
  });
});
